import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { API_PRELOADS } from '../../lib/ui/index-html.js';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { UiBrowser, UI_WAIT } from '../support/ui-browser.js';

const ARTIFACTS = 'test-artifacts/ui-api-preload';

/** What the page's Resource Timing says of one path: each entry is a request that went to the network. */
interface PathEntries {
  /** Sent by a `<link rel="preload">`. */
  preloaded: number;
  /** Sent by the app's own fetch (a fetch the preload answered sends nothing and leaves no entry). */
  fetched: number;
}

/**
 * index.html preloads the API requests the 7.6.5 app makes first on every page and the modules
 * its entry script imports (lib/ui/index-html.ts): in Chromium against `npm start`, the app's
 * own requests are answered from those preloads, so the service gets each of them once per
 * page, not twice, logged out and logged in.
 */
describe("index.html's preloads of the UI's first API requests, in Chromium", () => {
  const adminPassword = `Admin-${randomBytes(12).toString('base64url')}`;
  let server: StartedServer;
  let ui: UiBrowser | undefined;
  /** Every console message about preloading (Chromium warns when a preload goes unused). */
  const preloadWarnings: string[] = [];

  beforeAll(async () => {
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('ui-api-preload'),
      UNLEASH_DEFAULT_ADMIN_PASSWORD: adminPassword,
      // One JSON line per request the server answered: what the browser really sent.
      ACCESS_LOG: '1',
    });
    ui = await UiBrowser.launch([server.url], [], ARTIFACTS);
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await ui?.close();
    await server?.stop();
  });

  /** Every page a test opens, closed after it even when it fails: the app asks again every 15 s, which the next test's count would take for its own. */
  const opened: Page[] = [];
  afterEach(async () => {
    for (const page of opened.splice(0)) await page.close().catch(() => undefined);
    expect((await ui?.faults.take()) ?? []).toEqual([]);
  });

  /** GET requests the server answered for `path` since `from` (a length of its output). */
  const answered = (from: number, path: string): number[] =>
    server.output().slice(from).split('\n')
      .filter((line) => line.startsWith('{"log":"access"'))
      .map((line) => JSON.parse(line) as { method: string; path: string; status: number })
      .filter((line) => line.method === 'GET' && line.path === path)
      .map((line) => line.status);

  // Browser code as text: this project's TypeScript has no DOM types.
  const entriesOf = async (page: Page, path: string): Promise<PathEntries> => (await page.evaluate(`(() => {
    const mine = performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname === ${JSON.stringify(path)});
    return { preloaded: mine.filter((entry) => entry.initiatorType === 'link').length, fetched: mine.filter((entry) => entry.initiatorType === 'fetch').length };
  })()`)) as PathEntries;

  /** When each of the page's requests for `path` started (Resource Timing, ms after the navigation began). */
  const startsOf = async (page: Page, path: string): Promise<number[]> => (await page.evaluate(`performance.getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname === ${JSON.stringify(path)}).map((entry) => entry.startTime)`)) as number[];

  /** How often the app called fetch() for `path` (counted by the init script of `watch`). */
  const appFetchesOf = async (page: Page, path: string): Promise<number> =>
    (await page.evaluate(`window.appFetches[${JSON.stringify(path)}] ?? 0`)) as number;

  /**
   * Each preloaded path: the service answered it exactly as often as the app asked for it,
   * once of those through the preload; an app request the preload did not answer would have
   * been one more. The page's Resource Timing agrees: one request by the preload, and for
   * `/api/admin/user`, which the app asks once on opening, none by the app's fetch.
   */
  async function expectAnsweredFromPreloads(page: Page, from: number, userStatus: number): Promise<void> {
    for (const path of API_PRELOADS) {
      // Polled: the app may still be asking again (its configuration hook) when the page shows.
      await expect.poll(async () => {
        const entries = await entriesOf(page, path);
        const asked = await appFetchesOf(page, path);
        return { preloaded: entries.preloaded, askedAtLeastOnce: asked > 0, servedBeyondAsked: answered(from, path).length - asked };
      }, { message: path }).toEqual({ preloaded: 1, askedAtLeastOnce: true, servedBeyondAsked: 0 });
    }
    expect(answered(from, '/api/admin/user')).toEqual([userStatus]);
    expect(await entriesOf(page, '/api/admin/user')).toEqual({ preloaded: 1, fetched: 0 });
  }

  /** Counts the app's fetch() calls by path, and keeps Chromium's words about preloads. */
  async function watch(page: Page): Promise<void> {
    await page.addInitScript(`{
      const counts = {};
      window.appFetches = counts;
      const original = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        counts[url.pathname] = (counts[url.pathname] ?? 0) + 1;
        return original(input, init);
      };
    }`);
    page.on('console', (message) => {
      if (/preload/i.test(message.text())) preloadWarnings.push(`${message.type()}: ${message.text()}`);
    });
  }

  /** The entry script's imports index.html links as modulepreload. */
  let modules: string[] = [];

  it('serves index.html with the preloads at the top of <head>', async () => {
    const html = await (await fetch(`${server.url}/projects/default`)).text();
    modules = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map(([, path]) => path!);

    for (const path of API_PRELOADS) expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="${path}" />`);
    // 7.6.5's entry imports four chunks (test/unit/ui-module-preloads.test.ts names them).
    expect(modules).toHaveLength(4);
    expect(html.indexOf('rel="modulepreload"')).toBeLessThan(html.indexOf('<script type="module"'));
  });

  it('logged out: the login page asks who is signed in once, the preload answering the app; each module once', async () => {
    const { page } = await ui!.person('visitor');
    opened.push(page);
    await watch(page);
    const from = server.output().length;
    await page.goto(`${server.url}/login`);
    await page.locator('#username').waitFor();

    await expectAnsweredFromPreloads(page, from, 401);
    // A first visit, nothing cached: each module loaded once, and by its preload. Had the module
    // loader not taken the preloaded module it would have loaded it again (a second entry, if
    // only from the HTTP cache); without the preload, the entry's import asks for it only after
    // the entry has arrived, so after the entry's own request started, never before it.
    const entry = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(await page.content())?.[1] ?? '';
    const [entryStart] = await startsOf(page, entry);
    expect(entryStart).toBeDefined();
    for (const path of modules) {
      expect(answered(from, path), path).toEqual([200]);
      const starts = await startsOf(page, path);
      expect(starts, path).toHaveLength(1);
      expect(starts[0], path).toBeLessThanOrEqual(entryStart!);
    }
  });

  it('logged in: a page opened anew gets its user and configuration from the preloads', async () => {
    const { page: login, signedIn } = await ui!.person('admin');
    opened.push(login);
    await login.goto(`${server.url}/login`);
    await login.locator('#username').fill('admin');
    await login.locator('#password').fill(adminPassword);
    await login.getByRole('button', { name: 'Sign in' }).click();
    await login.getByTestId('HEADER_USER_AVATAR').waitFor();
    signedIn();
    // Closed first: nothing the login's page still asks for (its refreshes) is counted for the next.
    const context = login.context();
    await login.close();

    const page = await context.newPage();
    opened.push(page);
    page.setDefaultTimeout(UI_WAIT);
    await watch(page);
    const from = server.output().length;
    await page.goto(`${server.url}/projects/default`);
    await page.getByTestId('HEADER_USER_AVATAR').waitFor();

    await expectAnsweredFromPreloads(page, from, 200);
    // Chromium warns of a preload left unused a few seconds after the page's load; the pages above had those seconds.
    expect(preloadWarnings).toEqual([]);
  });
});
