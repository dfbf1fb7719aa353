import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { GROUP_HEADINGS } from '../../lib/docs/group-headings.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';

/** Debian's Chromium (`.ci/run` installs it); playwright-core never downloads a browser. */
const SCREENSHOT = 'test-artifacts/docs.png';


describe('the Swagger UI page in a real browser', () => {
  let server: StartedServer;
  let context: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'));
    server = await startServerProcess({ DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('docs') });
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    // Always closed, whatever the test did: a stray Chromium would outlive the run.
    await context?.close();
    await server?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('renders the endpoint groups from /docs/openapi.json under its Content-Security-Policy, with no request leaving the machine', async () => {
    // launchPersistentContext is how playwright takes a --user-data-dir of our choosing.
    context = await chromium.launchPersistentContext(profile!, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      viewport: { width: 1280, height: 1400 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    // Init scripts run outside the page's policy, so this listener sees every refusal the policy makes.
    await context.addInitScript(`
      window.cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
    `);
    page.setDefaultTimeout(20_000);

    const script = page.waitForResponse((answer) => answer.url().endsWith('/docs/swagger-ui-bundle.js'));
    const response = await page.goto(`${server.url}/docs`);
    // Swagger UI renders a heading per tag once it has fetched and parsed the document. With over
    // 100 operations it renders only the part of the list in view (its virtual list), so the
    // headings are gathered while scrolling to the end.
    await page.locator('.opblock-tag').first().waitFor();
    const headings = new Set<string>();
    for (let step = 0; step < 400; step += 1) {
      for (const text of await page.locator('.opblock-tag').allTextContents()) headings.add(text);
      const atEnd = (await page.evaluate('window.innerHeight + window.scrollY >= document.body.scrollHeight - 2')) as boolean;
      if (atEnd) break;
      // Half a screen a step: each heading is in view for two steps, however late a render comes.
      await page.evaluate('window.scrollBy(0, window.innerHeight / 2)');
      await page.waitForTimeout(100);
    }
    const title = await page.locator('.information-container .title').textContent();
    // A string, as the test is compiled without the DOM's types.
    const violations = (await page.evaluate('window.cspViolations')) as string[];
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });

    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    expect(violations).toEqual([]);
    expect(consoleErrors.filter((text) => /content security policy/i.test(text))).toEqual([]);
    expect((await script).headers()['content-encoding']).toBe('gzip');
    for (const group of ['instance', 'client', 'features', 'projects', 'access'] as const) {
      expect([...headings].join('\n')).toContain(GROUP_HEADINGS[group].name);
    }
    expect(title).toContain('serverless-toggles');
    expect(requested.some((url) => url.endsWith('/docs/openapi.json'))).toBe(true);
    expect(requested.filter((url) => !url.startsWith(server.url) && !url.startsWith('data:'))).toEqual([]);
  }, 60_000);
});
