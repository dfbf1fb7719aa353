import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';

/** A page's script: OpenFeature's web SDK and its OFREP provider, as published, on `window`. */
async function providerBundle(): Promise<string> {
  const result = await build({
    stdin: {
      contents: "import { OpenFeature } from '@openfeature/web-sdk'; import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';\n" +
        'Object.assign(window, { OpenFeature, OFREPWebProvider });',
      resolveDir: process.cwd(),
      loader: 'js',
    },
    bundle: true, format: 'iife', platform: 'browser', write: false, logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** One answer of the server, as the proxy in front of it saw it. */
interface Seen {
  method: string;
  path: string;
  status: number;
}

/**
 * OFREP proved by a real browser: a page served from another origin loads OpenFeature's web SDK
 * with the OFREP web provider (configured with `Authorization: Bearer <frontend token>`, polling)
 * and evaluates `npm start`'s flags. Between the page and the server sits a proxy that records
 * every answer the server sends, so the 304s of unchanged polls are counted where they are made.
 */
describe('the OFREP web provider from a page of another origin in Chromium', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('ofrep-web');
  const flag = `${project}-banner`;
  const textFlag = `${project}-theme`;
  let server: StartedServer;
  let proxy: Server | undefined;
  let proxyUrl: string;
  let page: Server | undefined;
  let pageOrigin: string;
  let context: BrowserContext | undefined;
  let profile: string | undefined;
  let frontendToken: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    profile = mkdtempSync(join(tmpdir(), 'ofrep-chromium-'));
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('ofrep-browser'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    const target = new URL(server.url);
    proxy = createServer((req, res) => {
      const forwarded = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        seen.push({ method: req.method ?? '', path: req.url ?? '', status: answer.statusCode ?? 0 });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forwarded.on('error', () => res.writeHead(502).end());
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;

    const script = await providerBundle();
    page = createServer((req, res) => {
      if (req.url === '/openfeature.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>web app</title><script src="/openfeature.js"></script>');
    });
    await new Promise<void>((resolve) => page!.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;

    await admin('POST', '/api/admin/projects', { id: project, name: project });
    const rollout = { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'g' } };
    for (const [name, strategy] of [
      [flag, { ...rollout, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] }],
      [textFlag, { ...rollout, variants: [{ name: 'dark', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'night' } }] }],
    ] as const) {
      await admin('POST', `/api/admin/projects/${project}/features`, { name });
      await admin('POST', `/api/admin/projects/${project}/features/${name}/environments/development/strategies`, strategy);
      await admin('POST', `/api/admin/projects/${project}/features/${name}/environments/development/on`);
    }
    frontendToken = (await admin('POST', '/api/admin/api-tokens', {
      tokenName: unique('web'), type: 'frontend', environment: 'development', projects: [project],
    })).secret;

    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 30_000 });
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    // Always closed, whatever the test did: a stray Chromium would outlive the run.
    await context?.close();
    for (const open of [page, proxy]) await new Promise((resolve) => (open ? open.close(resolve) : resolve(undefined)));
    expect(await server?.stop()).toBe(0);
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const admin = adminOverHttp(() => server.url, adminSecret);

  /** Opens the page and starts the provider in it for `targetingKey`; answers whether it became ready, and the console's errors. */
  async function openPage(targetingKey: string): Promise<{ tab: Page; ready: boolean; error?: string; consoleErrors: string[] }> {
    const tab = await context!.newPage();
    tab.setDefaultTimeout(30_000);
    const consoleErrors: string[] = [];
    tab.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await tab.goto(`${pageOrigin}/`);
    // A string, as the test is compiled without the DOM's types.
    const outcome = (await tab.evaluate(`(async () => {
      const provider = new OFREPWebProvider({
        baseUrl: ${JSON.stringify(proxyUrl)},
        headers: [['Authorization', 'Bearer ' + ${JSON.stringify(frontendToken)}]],
        pollInterval: 300,
        changeDetection: 'polling',
        cacheMode: 'disabled',
      });
      window.flags = OpenFeature.getClient();
      try {
        await OpenFeature.setContext({ targetingKey: ${JSON.stringify(targetingKey)} });
        await OpenFeature.setProviderAndWait(provider);
        return { ready: true };
      } catch (error) {
        return { ready: false, error: String(error) };
      }
    })()`)) as { ready: boolean; error?: string };
    return { tab, ...outcome, consoleErrors };
  }

  const details = (tab: Page, call: string) => tab.evaluate(`window.flags.${call}`) as Promise<{ value: unknown; variant?: string; reason?: string; errorCode?: string }>;

  it('evaluates the flags for the page\'s context: a user constraint by targetingKey, a string payload with its variant', async () => {
    const { tab, ready } = await openPage('alice');
    try {
      expect(ready).toBe(true);
      expect(await details(tab, `getBooleanDetails(${JSON.stringify(flag)}, false)`)).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
      expect(await details(tab, `getStringDetails(${JSON.stringify(textFlag)}, 'day')`)).toMatchObject({ value: 'night', variant: 'dark' });
      expect(await details(tab, `getBooleanDetails(${JSON.stringify(unique('missing'))}, true)`)).toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('polls with the ETag: the server answers 304 while nothing changed, and the new value once the flag changes', async () => {
    const { tab, ready } = await openPage('alice');
    try {
      expect(ready).toBe(true);
      const bulk = (entry: Seen) => entry.method === 'POST' && entry.path.startsWith('/ofrep/v1/evaluate/flags');
      const from = seen.length;
      await expect.poll(() => seen.slice(from).filter((entry) => bulk(entry) && entry.status === 304).length, { interval: 200, timeout: 30_000 }).toBeGreaterThan(0);
      expect(await tab.evaluate(`window.flags.getBooleanValue(${JSON.stringify(flag)}, false)`)).toBe(true);

      await admin('POST', `/api/admin/projects/${project}/features/${flag}/environments/development/off`);

      // A frontend token's answer leaves out a flag that is off: the page gets its own default.
      await expect.poll(() => tab.evaluate(`window.flags.getBooleanDetails(${JSON.stringify(flag)}, true)`), { interval: 200, timeout: 30_000 })
        .toMatchObject({ value: true, errorCode: 'FLAG_NOT_FOUND' });
      expect(seen.slice(from).some((entry) => bulk(entry) && entry.status === 200)).toBe(true);
      await admin('POST', `/api/admin/projects/${project}/features/${flag}/environments/development/on`);
    } finally {
      await tab.close();
    }
  }, 90_000);

  it('works once the page\'s origin is listed, and is refused by the browser when another origin is', async () => {
    await allowOrigins([pageOrigin], pageOrigin);
    const listed = await openPage('alice');
    await listed.tab.close();
    expect(listed.ready).toBe(true);

    await allowOrigins(['https://app.example.com'], null);
    const refused = await openPage('alice');
    try {
      expect(refused).toMatchObject({ ready: false, error: expect.stringContaining('The OFREP request failed') });
      // The page gets its own default: the provider never received a flag.
      expect(await details(refused.tab, `getBooleanDetails(${JSON.stringify(flag)}, false)`)).toMatchObject({ value: false, reason: 'ERROR' });
      // Chromium says why, on the page's console (it may log it just after the fetch fails).
      await expect.poll(() => refused.consoleErrors.join('\n'), { timeout: 10_000 }).toMatch(/blocked by CORS policy/);
    } finally {
      await refused.tab.close();
    }
  }, 90_000);

  /** Lists `origins` and waits until OFREP answers a preflight from the page's origin as `expected`. */
  async function allowOrigins(origins: string[], expected: string | null): Promise<void> {
    await admin('POST', '/api/admin/ui-config/cors', { frontendApiOrigins: origins });
    await expect.poll(async () => {
      const res = await fetch(`${server.url}/ofrep/v1/evaluate/flags`, {
        method: 'OPTIONS',
        headers: { Origin: pageOrigin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type' },
      });
      return res.headers.get('access-control-allow-origin');
    }, { interval: 200, timeout: 30_000 }).toBe(expected);
  }
});
