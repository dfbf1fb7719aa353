import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { BrowserFaults, type ExpectedFailure, type StubbedHost } from './browser-faults.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

/** The UI's page loads fonts and avatars from the internet; the test machine may have none. */
const UI_STUBBED_HOSTS: StubbedHost[] = [
  { host: 'fonts.googleapis.com', answer: { status: 200, contentType: 'text/css', body: '' }, reason: "index.html's Google Fonts stylesheets (the app falls back to system fonts)" },
  { host: 'gravatar.com', answer: { status: 204 }, reason: "each user's avatar (the app shows initials instead)" },
];

/** A Content-Security-Policy violation as the page's `securitypolicyviolation` event reports it. */
export interface PolicyViolation {
  directive: string;
  /** What was refused: a URL, `inline` or `eval`. */
  blocked: string;
  sourceFile: string;
  /** The first characters of the refused script (the policy's 'report-sample'). */
  sample: string;
}

/** A violation the UI's build is known to cause, and to recover from by itself. */
interface ExpectedViolation {
  matches: (violation: PolicyViolation) => boolean;
  /** What the build does and why nothing is lost: an entry without one does not belong here. */
  reason: string;
}

const UI_EXPECTED_VIOLATIONS: ExpectedViolation[] = [
  {
    matches: (v) => v.directive === 'script-src' && v.blocked === 'eval'
      && /^\(function anonymous\(\s*\)\s*\{\s*return this\s*\}\)$/.test(v.sample)
      && /\/static\/index-[\w-]+\.js$/.test(v.sourceFile),
    reason: "a bundled library looks for the global object with Function('return this') inside a try, and when the policy "
      + 'refuses it (no unsafe-eval) takes `window` instead: the probe is refused, nothing the page needs is',
  },
];

/**
 * The faults of a UI test's browsers (BrowserFaults) and every Content-Security-Policy violation
 * on any of their pages: the UI is served under a policy (lib/ui/security-headers.ts), and a
 * source it needs and the policy refuses is a fault even when the page still looks right (a
 * font or an avatar missing), so a step that triggers one fails. Only a violation listed above
 * with its reason is not.
 */
export class UiFaults {
  private readonly violations: string[] = [];

  constructor(
    private readonly browser: BrowserFaults,
    private readonly expected: ExpectedViolation[] = UI_EXPECTED_VIOLATIONS,
  ) {}

  async watch(context: BrowserContext, who: string): Promise<{ signedIn: () => void }> {
    // A binding and an init script go through the DevTools protocol, which the policy does not govern.
    await context.exposeBinding('reportPolicyViolation', ({ page }, violation: PolicyViolation) => {
      if (this.expected.some((entry) => entry.matches(violation))) return;
      const { directive, blocked, sourceFile, sample } = violation;
      this.violations.push(`${who}: Content-Security-Policy violation on ${page.url()}: ${directive} refused ${blocked || '(inline)'} (${sourceFile}) ${sample}`);
    });
    await context.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => window.reportPolicyViolation({
      directive: event.effectiveDirective, blocked: event.blockedURI, sourceFile: event.sourceFile, sample: event.sample,
    }));`);
    // Chromium also logs each refusal; a warning (report-only) counts as well as an error.
    context.on('console', (message) => {
      if (message.type() !== 'error' && /Content Security Policy/i.test(message.text())) this.violations.push(`${who}: console: ${message.text()}`);
    });
    return this.browser.watch(context, who);
  }

  /** The faults and violations recorded since the last call. */
  async take(): Promise<string[]> {
    return [...(await this.browser.take()), ...this.violations.splice(0)];
  }
}

/** Generous bound for the UI to react on a loaded two-core machine; waits end as soon as it has. */
export const UI_WAIT = 30_000;

/**
 * One headless Chromium for a test file that uses Unleash's admin UI: a fresh context per
 * person, every context watched for faults (`faults`), and numbered screenshots of the steps in
 * `artifacts`, emptied when the browser starts.
 */
export class UiBrowser {
  private shots = 0;

  private constructor(
    private readonly browser: Browser,
    readonly faults: UiFaults,
    private readonly artifacts: string,
  ) {}

  /** `origins` are the service's own (and any other site the flow visits, such as an identity provider). */
  static async launch(origins: string[], expected: ExpectedFailure[], artifacts: string): Promise<UiBrowser> {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
    return new UiBrowser(browser, new UiFaults(new BrowserFaults(origins, expected, UI_STUBBED_HOSTS)), artifacts);
  }

  /** A fresh browser context (its own cookies), watched for faults and policy violations, with a page to use. */
  async person(who: string): Promise<{ page: Page; signedIn: () => void }> {
    const context = await this.browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const { signedIn } = await this.faults.watch(context, who);
    const page = await context.newPage();
    page.setDefaultTimeout(UI_WAIT);
    return { page, signedIn };
  }

  async shot(page: Page, name: string): Promise<void> {
    this.shots += 1;
    await page.screenshot({ path: `${this.artifacts}/${String(this.shots).padStart(2, '0')}-${name}.png` });
  }

  /** Closes every context and page: a stray Chromium would outlive the run. */
  close(): Promise<void> {
    return this.browser.close();
  }
}

/** Unleash's key concepts, shown on a user's first dashboard: closing it records that (the splash endpoint). */
export async function closeWelcome(page: Page): Promise<void> {
  await page.getByTestId('HEADER_USER_AVATAR').waitFor();
  const seen = page.waitForResponse((res) => res.url().endsWith('/api/admin/splash/personalDashboardKeyConcepts'));
  await page.getByRole('button', { name: "Got it, let's get started!" }).click();
  expect((await seen).status()).toBe(200);
}
