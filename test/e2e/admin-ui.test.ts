import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { isApiPath } from '../../lib/ui/paths.js';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../support/chromium.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';

const SCREENSHOT = 'test-artifacts/admin-ui.png';


/** `npm start` serves Unleash's admin UI beside the API (issue 16, deliverable 5). */
describe("Unleash's admin UI served by npm start", () => {
  let server: StartedServer;
  let context: BrowserContext | undefined;
  let profile: string | undefined;

  beforeAll(async () => {
    // The install step fetches it (postinstall); a machine that could not reach the registry then has none.
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
    profile = mkdtempSync(join(tmpdir(), 'admin-ui-chromium-'));
    server = await startServerProcess({ DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('ui') });
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('answers the app at / and at client-side routes, its assets by their types, and leaves the API its own 404s', async () => {
    const root = await fetch(`${server.url}/`);
    const html = await root.text();
    const route = await fetch(`${server.url}/projects/default/features/checkout.v2`);
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? '';
    const asset = await fetch(`${server.url}${script}`);
    const licence = await fetch(`${server.url}/LICENSE`);
    const unknownApi = await fetch(`${server.url}/api/admin/no-such-thing`);

    expect(server.output()).toContain(`admin UI: ${server.url}/`);
    expect(root.status).toBe(200);
    expect(root.headers.get('cache-control')).toBe('no-cache');
    // No other site may frame it; what it may load is its policy (lib/ui/security-headers.ts).
    expect(root.headers.get('x-frame-options')).toBe('DENY');
    expect(root.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(asset.headers.get('content-security-policy')).toBe(root.headers.get('content-security-policy'));
    expect(html).toContain('<meta name="baseUriPath" content="" />');
    expect(html).not.toContain('::');
    expect(await route.text()).toBe(html);
    expect(script).toMatch(/^\/static\/index-[\w-]+\.js$/);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await licence.text()).toContain('Apache License');
    expect(unknownApi.headers.get('content-type')).toContain('application/json');
    expect(unknownApi.status).not.toBe(200);
  });

  it('loads in Chromium: every file of its own loads, its script runs, and without a session it shows the login form', async () => {
    context = await chromium.launchPersistentContext(profile!, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      viewport: { width: 1280, height: 900 },
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(20_000);
    const own = (url: string) => url.startsWith(`${server.url}/`);
    const uiFile = (url: string) => own(url) && !isApiPath(new URL(url).pathname);
    // The UI's own files: a failed request or an error answer for any of them is a serving fault.
    const failedFiles: string[] = [];
    page.on('requestfailed', (request) => {
      if (uiFile(request.url())) failedFiles.push(`${request.url()} ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      if (uiFile(response.url()) && response.status() >= 400) failedFiles.push(`${response.url()} ${response.status()}`);
    });
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // Console errors about loading our own files (a refused module script, a wrong MIME type).
    const loadErrors: string[] = [];
    page.on('console', (message) => {
      const where = message.location().url;
      if (message.type() === 'error' && (where === '' || uiFile(where)) && /MIME|module script|Failed to load/i.test(message.text())) {
        loadErrors.push(`${message.text()} (${where})`);
      }
    });

    const user = page.waitForResponse((answer) => answer.url() === `${server.url}/api/admin/user`);
    const response = await page.goto(`${server.url}/`);
    const userStatus = (await user).status();
    // Without a session the API's 401 names the login form, and the app shows it.
    await page.locator('input[type="password"]').first().waitFor();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    mkdirSync('test-artifacts', { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });

    expect(response?.status()).toBe(200);
    expect(failedFiles).toEqual([]);
    expect(loadErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    expect(userStatus).toBe(401);
  }, 90_000);
});

/** `API_MAPPING_KEY=toggles npm start`: the UI under the key as well, told its base path. */
describe('the admin UI behind an API mapping key', () => {
  let server: StartedServer;

  beforeAll(async () => {
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    server = await startServerProcess({ DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('ui-mapped'), API_MAPPING_KEY: 'toggles' });
  });

  afterAll(stopStartedServers);
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('serves the app under the key with its base path and assets there, and nothing outside the key', async () => {
    const root = await fetch(`${server.url}/toggles/`);
    const html = await root.text();
    const route = await fetch(`${server.url}/toggles/projects/default`);
    const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1] ?? '';
    const asset = await fetch(`${server.url}${script}`);
    const outside = await fetch(`${server.url}/projects/default`);

    expect(server.output()).toContain(`admin UI: ${server.url}/toggles/`);
    expect(root.status).toBe(200);
    expect(html).toContain('<meta name="baseUriPath" content="/toggles" />');
    expect(await route.text()).toBe(html);
    expect(script).toMatch(/^\/toggles\/static\/index-[\w-]+\.js$/);
    expect(asset.status).toBe(200);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ message: 'Not Found' });
  });
});
