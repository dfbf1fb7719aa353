/**
 * The pages the UI benchmark opens, and how one opening is measured in Chromium. Both servers
 * serve Unleash 7.6.5's own UI build, so one set of selectors serves both. A page counts as
 * shown when an element that only its data can make is visible and Unleash's loading
 * placeholders (`.skeleton`) are gone; the network is idle when playwright's `networkidle` fired
 * (no request for 500 ms), and the idle time reported is when the last request of the page ended.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { uiFlagName, BIG_PROJECT } from './ui-seed.js';

/** Debian's Chromium (CHROMIUM_PATH points elsewhere), started as the browser tests start it. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];
/** Long enough for a 1,000-flag page on a loaded two-core machine; a page that takes longer is reported as such. */
let PAGE_TIMEOUT_MS = 120_000;

export interface UiServer {
  label: string;
  url: string;
  username: string;
  password: string;
}

export interface UiPage {
  name: string;
  /** Opened logged out (a fresh context) rather than in the admin's session. */
  loggedOut?: boolean;
  path: string;
  /** Resolves when the page shows its content. */
  shown(page: Page): Promise<void>;
}

/** The search typed into the flags overview: the big project's middle ten flags (of 1,000). */
const overviewSearch = (flags: number) => uiFlagName(BIG_PROJECT, Math.floor(flags / 2)).slice(0, -1);
/** One evaluation: the playground reads its form from the address and evaluates it when it opens. */
const PLAYGROUND_QUERY = new URLSearchParams({
  context: JSON.stringify({ appName: 'checkout', userId: 'beta-42' }),
  environments: 'development',
  projects: BIG_PROJECT,
}).toString();

async function noSkeletons(page: Page): Promise<void> {
  // A locator, not waitForFunction: this service's Content-Security-Policy (no 'unsafe-eval') refuses the string a function wait evaluates.
  await page.locator('.skeleton').first().waitFor({ state: 'detached', timeout: PAGE_TIMEOUT_MS });
}

/** Table rows of a flag table (the project's list, the overview). */
async function flagRows(page: Page, text: string): Promise<void> {
  await page.locator('table tbody tr').filter({ hasText: text }).first().waitFor({ state: 'attached', timeout: PAGE_TIMEOUT_MS });
  await noSkeletons(page);
}

/** The pages, for a big project of `flags` flags (the flag page opens one from its middle). */
export const pagesFor = (flags: number, timeoutMs = PAGE_TIMEOUT_MS): UiPage[] => {
  PAGE_TIMEOUT_MS = timeoutMs;
  return pages(flags);
};

const pages = (flags: number): UiPage[] => [
  {
    name: 'login page', loggedOut: true, path: '/login',
    shown: (page) => page.locator('#password').waitFor({ timeout: PAGE_TIMEOUT_MS }),
  },
  {
    name: 'dashboard', path: '/personal',
    shown: async (page) => {
      await page.getByText(/Welcome/).first().waitFor({ timeout: PAGE_TIMEOUT_MS });
      await noSkeletons(page);
    },
  },
  {
    // The rows sit below the project's header, out of the window: the pager's count proves them.
    name: 'project flag list', path: `/projects/${BIG_PROJECT}`,
    shown: async (page) => {
      await page.getByText(/Showing 1-\d+ items out of [1-9]/).first().waitFor({ timeout: PAGE_TIMEOUT_MS });
      await flagRows(page, 'ui-flag-');
    },
  },
  {
    name: 'flag page', path: `/projects/${BIG_PROJECT}/features/${uiFlagName(BIG_PROJECT, Math.floor(flags / 2))}`,
    shown: async (page) => {
      await page.getByTestId('FEATURE_ENVIRONMENT_ACCORDION_development').waitFor({ timeout: PAGE_TIMEOUT_MS });
      await noSkeletons(page);
    },
  },
  {
    name: 'flags overview search', path: `/search?query=${overviewSearch(flags)}`,
    shown: (page) => flagRows(page, overviewSearch(flags)),
  },
  {
    name: 'event log', path: '/history',
    shown: async (page) => {
      await page.getByText(/feature-environment-(enabled|disabled)/).first().waitFor({ timeout: PAGE_TIMEOUT_MS });
      await noSkeletons(page);
    },
  },
  {
    name: 'playground evaluation', path: `/playground?${PLAYGROUND_QUERY}`,
    shown: (page) => page.locator('table tbody tr').filter({ hasText: 'ui-flag-' }).first().waitFor({ timeout: PAGE_TIMEOUT_MS }),
  },
];

export const PAGE_NAMES = pagesFor(1).map((page) => page.name);

export interface RequestRecord {
  method: string;
  /** Path and query. */
  path: string;
  status: number;
  /** From the request's start to the end of its answer. */
  ms: number;
  /** Bytes on the wire: headers and (compressed) body. */
  bytes: number;
  api: boolean;
  /** When the browser started the request, ms after the navigation began (the waterfall's left edge). */
  startMs: number;
  /** When its answer's last byte arrived, ms after the navigation began (NaN when it never did). */
  endMs: number;
  /** From sending the request to the answer's first byte: the server's part. NaN when not measured (cache, failure). */
  waitMs: number;
  /** Whether the request opened a new connection (no kept-alive one was free). */
  newConnection: boolean;
  /** The answer's headers that decide caching, compression and connection reuse (the waterfall prints them). */
  headers: Record<string, string>;
}

export interface PageRun {
  /** From navigation to content shown. */
  shownMs: number;
  /** From navigation to the end of the last request before the network went quiet. */
  idleMs: number;
  requests: RequestRecord[];
  /** What made the run fail (a timeout), when it did. */
  error?: string;
  /**
   * The browser's own work while the page opened, in ms (Chromium's Performance metrics,
   * read once the page was shown): all main-thread tasks, and the script and layout parts of it.
   * What is not in `taskMs` of the time to shown is the browser waiting, mostly on the servers.
   */
  browser?: { taskMs: number; scriptMs: number; layoutMs: number; recalcStyleMs: number };
}

/** The answer headers a waterfall shows: what decides caching, compression and keep-alive. */
const WATERFALL_HEADERS = ['cache-control', 'etag', 'last-modified', 'content-encoding', 'connection', 'keep-alive', 'vary', 'content-length', 'transfer-encoding'];

/** One Chromium for the whole benchmark; `close` ends it. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * A context for one server. The UI's page reaches for hosts of the internet (fonts, avatars):
 * Chromium resolves no name but the loopback address (CHROMIUM_ARGS), so those fail at once on
 * both sides. Intercepting them with playwright's routing instead would switch off the HTTP
 * cache, and a person coming back to the UI has its files cached.
 */
export async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 1400, height: 1000 } });
}

/** Logs the admin in through the form; the first time, closes the welcome dialog the dashboard opens. */
export async function logIn(context: BrowserContext, server: UiServer): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/login`);
    // A 503 is the service's "not now" (a store deadline on a loaded machine): sent again, as a person would.
    for (let attempt = 1; ; attempt += 1) {
      await page.locator('#username').fill(server.username);
      await page.locator('#password').fill(server.password);
      const login = page.waitForResponse((res) => new URL(res.url()).pathname === '/auth/simple/login', { timeout: PAGE_TIMEOUT_MS });
      await page.getByRole('button', { name: 'Sign in' }).click();
      const answer = await login;
      if (answer.status() === 200) break;
      if (answer.status() !== 503 || attempt === 5) throw new Error(`${server.label}: login answered ${answer.status()}`);
      await page.goto(`${server.url}/login`);
    }
    await page.getByTestId('HEADER_USER_AVATAR').waitFor({ timeout: PAGE_TIMEOUT_MS });
    const welcome = page.getByRole('button', { name: "Got it, let's get started!" });
    if (await welcome.waitFor({ timeout: 10_000 }).then(() => true, () => false)) {
      const seen = page.waitForResponse((res) => res.url().includes('/api/admin/splash/'), { timeout: PAGE_TIMEOUT_MS });
      await welcome.click();
      await seen;
    }
  } finally {
    await page.close();
  }
}

/**
 * Opens `target` in a new page of `context` (its cookies and HTTP cache: a person coming back),
 * and measures it; a page that fails leaves a screenshot in `shotsDir`.
 */
export async function measurePage(context: BrowserContext, server: UiServer, target: UiPage, shotsDir?: string): Promise<PageRun> {
  const page = await context.newPage();
  const origin = new URL(server.url).origin;
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(origin)) seen.push(request);
  });
  // Chromium's counters of main-thread work; they count from the tab's start, so the opening's part is after minus before.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const of = (name: string) => (metrics.find((metric) => metric.name === name)?.value ?? 0) * 1000;
    return { taskMs: of('TaskDuration'), scriptMs: of('ScriptDuration'), layoutMs: of('LayoutDuration'), recalcStyleMs: of('RecalcStyleDuration') };
  };
  try {
    const busyBefore = await busy();
    const started = Date.now();
    let error: string | undefined;
    let shownMs = Number.NaN;
    let browser: PageRun['browser'];
    try {
      await page.goto(`${server.url}${target.path}`, { waitUntil: 'commit', timeout: PAGE_TIMEOUT_MS });
      await target.shown(page);
      shownMs = Date.now() - started;
      const busyShown = await busy();
      browser = {
        taskMs: busyShown.taskMs - busyBefore.taskMs, scriptMs: busyShown.scriptMs - busyBefore.scriptMs,
        layoutMs: busyShown.layoutMs - busyBefore.layoutMs, recalcStyleMs: busyShown.recalcStyleMs - busyBefore.recalcStyleMs,
      };
      await page.waitForLoadState('networkidle', { timeout: PAGE_TIMEOUT_MS });
    } catch (failure) {
      error = failure instanceof Error ? failure.message.split('\n')[0] : String(failure);
      if (shotsDir) {
        mkdirSync(shotsDir, { recursive: true });
        await page.screenshot({ path: join(shotsDir, `${server.label}-${target.name.replace(/\W+/g, '-')}.png`) }).catch(() => undefined);
      }
    }
    const requests: RequestRecord[] = [];
    let lastEnd = 0;
    for (const request of seen) {
      const response = await request.response().catch(() => null);
      const timing = request.timing();
      const ended = timing.responseEnd > 0 ? timing.startTime + timing.responseEnd : Number.NaN;
      if (Number.isFinite(ended)) lastEnd = Math.max(lastEnd, ended);
      const sizes = response ? await request.sizes().catch(() => undefined) : undefined;
      const url = new URL(request.url());
      const all = response ? await response.allHeaders().catch(() => ({} as Record<string, string>)) : {};
      const headers = Object.fromEntries(WATERFALL_HEADERS.filter((name) => all[name] !== undefined).map((name) => [name, all[name] as string]));
      requests.push({
        method: request.method(), path: `${url.pathname}${url.search}`, status: response?.status() ?? 0,
        ms: timing.responseEnd > 0 ? timing.responseEnd : Number.NaN,
        bytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
        api: url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/') || url.pathname.startsWith('/logout'),
        startMs: timing.startTime - started,
        endMs: Number.isFinite(ended) ? ended - started : Number.NaN,
        waitMs: timing.responseStart > 0 && timing.requestStart >= 0 ? timing.responseStart - timing.requestStart : Number.NaN,
        newConnection: timing.connectStart >= 0,
        headers,
      });
    }
    requests.sort((a, b) => a.startMs - b.startMs);
    return { shownMs, idleMs: lastEnd > 0 ? Math.max(shownMs, lastEnd - started) : shownMs, requests, ...(error ? { error } : {}), ...(browser ? { browser } : {}) };
  } finally {
    await cdp.detach().catch(() => undefined);
    await page.close();
  }
}
