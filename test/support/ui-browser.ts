import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { BrowserFaults, type ExpectedFailure, type StubbedHost } from './browser-faults.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

/** The UI's page loads fonts and avatars from the internet; the test machine may have none. */
const UI_STUBBED_HOSTS: StubbedHost[] = [
  { host: 'fonts.googleapis.com', answer: { status: 200, contentType: 'text/css', body: '' }, reason: "index.html's Google Fonts stylesheets (the app falls back to system fonts)" },
  { host: 'gravatar.com', answer: { status: 204 }, reason: "each user's avatar (the app shows initials instead)" },
];

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
    readonly faults: BrowserFaults,
    private readonly artifacts: string,
  ) {}

  /** `origins` are the service's own (and any other site the flow visits, such as an identity provider). */
  static async launch(origins: string[], expected: ExpectedFailure[], artifacts: string): Promise<UiBrowser> {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    rmSync(artifacts, { recursive: true, force: true });
    mkdirSync(artifacts, { recursive: true });
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
    return new UiBrowser(browser, new BrowserFaults(origins, expected, UI_STUBBED_HOSTS), artifacts);
  }

  /** A fresh browser context (its own cookies), watched for faults, with a page to use. */
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
