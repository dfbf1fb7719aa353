import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';

/** Debian's Chromium (`.ci/run` installs it); playwright-core never downloads a browser. */


/** unleash-proxy-client's UMD build: it defines the global `unleash`, as a page's script tag loads it. */
const SDK_BUNDLE = readFileSync('node_modules/unleash-proxy-client/build/main.min.js');

/** What the page's SDK reported first: ready (with one flag's value) or an error. */
interface Outcome {
  ready: boolean;
  enabled?: boolean;
  error?: string;
}

/**
 * CORS proved by a real browser: a page served from another origin (another port of 127.0.0.1)
 * loads the browser SDK's own bundle and fetches the Frontend API of `npm start`'s server. It works
 * while every origin is allowed and once its origin is listed; listing another one makes Chromium
 * refuse the answer, so the SDK reports an error and never becomes ready.
 */
describe('the Frontend API from a page of another origin in Chromium', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('cors');
  let server: StartedServer;
  let page: Server | undefined;
  let pageOrigin: string;
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  let frontendToken: string;
  let flag: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    profile = mkdtempSync(join(tmpdir(), 'frontend-chromium-'));
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('frontend-browser'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    page = createServer((req, res) => {
      if (req.url === '/unleash.js') {
        res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(SDK_BUNDLE);
      } else {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>web app</title><script src="/unleash.js"></script>');
      }
    });
    await new Promise<void>((resolve) => page!.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;

    await admin('POST', '/api/admin/projects', { id: project, name: project });
    flag = unique('flag');
    await admin('POST', `/api/admin/projects/${project}/features`, { name: flag });
    await admin('POST', `/api/admin/projects/${project}/features/${flag}/environments/development/strategies`, { name: 'default', parameters: {} });
    await admin('POST', `/api/admin/projects/${project}/features/${flag}/environments/development/on`);
    frontendToken = (await admin('POST', '/api/admin/api-tokens', {
      tokenName: unique('web'), type: 'frontend', environment: 'development', projects: [project],
    })).secret;

    // launchPersistentContext is how playwright takes a --user-data-dir of our choosing.
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    // Always closed, whatever the test did: a stray Chromium would outlive the run.
    await context?.close();
    await new Promise((resolve) => (page ? page.close(resolve) : resolve(undefined)));
    expect(await server?.stop()).toBe(0);
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const admin = adminOverHttp(() => server.url, adminSecret);

  /**
   * Lists `origins` and waits until the Frontend API answers a preflight from the page's origin
   * as `expected` (each function reads the list again within its revision-check interval).
   */
  async function allowOrigins(origins: string[], expected: string | null): Promise<void> {
    await admin('POST', '/api/admin/ui-config/cors', { frontendApiOrigins: origins });
    await expect.poll(async () => {
      const res = await fetch(`${server.url}/api/frontend`, {
        method: 'OPTIONS',
        headers: { Origin: pageOrigin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
      });
      return res.headers.get('access-control-allow-origin');
    }, { interval: 200, timeout: 30_000 }).toBe(expected);
  }

  /** Opens the page, starts the SDK in it, and answers its first `ready` or `error`, with the console's errors. */
  async function runPage(): Promise<{ outcome: Outcome; consoleErrors: string[]; allowOrigin: string | undefined }> {
    const tab = await context!.newPage();
    try {
      tab.setDefaultTimeout(30_000);
      const consoleErrors: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') consoleErrors.push(message.text());
      });
      let allowOrigin: string | undefined;
      tab.on('response', (response) => {
        if (response.request().method() === 'GET' && response.url().startsWith(`${server.url}/api/frontend`)) {
          allowOrigin = response.headers()['access-control-allow-origin'];
        }
      });
      await tab.goto(`${pageOrigin}/`);
      // A string, as the test is compiled without the DOM's types; the SDK reports one or the other.
      const outcome = (await tab.evaluate(`new Promise((resolve) => {
        const client = new unleash.UnleashClient({
          url: ${JSON.stringify(`${server.url}/api/frontend`)},
          clientKey: ${JSON.stringify(frontendToken)},
          appName: 'web-app',
          disableRefresh: true,
          disableMetrics: true,
        });
        client.on('ready', () => resolve({ ready: true, enabled: client.isEnabled(${JSON.stringify(flag)}) }));
        client.on('error', (error) => resolve({ ready: false, error: String(error.error ?? error.type) }));
        client.start();
      })`)) as Outcome;
      return { outcome, consoleErrors, allowOrigin };
    } finally {
      await tab.close();
    }
  }

  it('works from any origin by default', async () => {
    const { outcome, allowOrigin } = await runPage();

    expect(outcome).toEqual({ ready: true, enabled: true });
    expect(allowOrigin).toBe('*');
  }, 60_000);

  it('works once the page\'s origin is listed, and is refused by the browser when another origin is', async () => {
    await allowOrigins([pageOrigin], pageOrigin);
    const listed = await runPage();
    expect(listed.outcome).toEqual({ ready: true, enabled: true });
    expect(listed.allowOrigin).toBe(pageOrigin);

    await allowOrigins(['https://app.example.com'], null);
    const refused = await runPage();
    expect(refused.outcome).toEqual({ ready: false, error: 'TypeError: Failed to fetch' });
    // Chromium says why, on the page's console (it may log it just after the fetch fails).
    await expect.poll(() => refused.consoleErrors.join('\n'), { timeout: 10_000 }).toMatch(/blocked by CORS policy/);
  }, 90_000);
});
