/**
 * `npm run bench -- --ui`: Unleash's admin UI, in Chromium, served by this service and by
 * Unleash 7.6.5 itself on the same data (local/bench/ui-seed.ts). For each page (ui-pages.ts),
 * after one warm-up opening on each side, N openings alternate between the two servers (on a
 * shared machine other work slows whichever runs at the time, so neither side gets the quiet
 * moments) and the medians are compared. Then, for this service only, every API request the
 * pages made is sent again alone with the admin's session, counting the DynamoDB requests each
 * one costs: what a slow page spends its time on.
 *
 * Options: --ui-runs N (5), --ui-flags N (1000, in one project), --ui-events N (10000),
 * --ui-concurrency N (8 admin calls in flight while seeding), --ui-pages a,b (names, all by default),
 * --ui-timeout S (120: a page not shown by then is a failed run), --ui-before DIR (a tree of an
 * earlier commit: its server is measured first, then this one starts on the same table, so the
 * report gives before and after on identical data; Unleash is measured beside each),
 * --ui-waterfall (each page's median opening on both sides as a waterfall: every request's start
 * and end after the navigation began, its wait for the first byte, a new connection or not, the
 * answer's caching, compression and keep-alive headers, the shown mark and the browser's own
 * main-thread time; printed and written beside the report), --ui-preload-ab (this service is
 * also measured with index.html lacking its preloads, served by the same process on another
 * port, as a third side in the same alternating rounds), --ui-preload-ab-drops LIST (which
 * preloads that side lacks: api, modules or both, the default). Smaller --ui-flags and --ui-events
 * seed in a fraction of the time and show the same waterfall shape for investigating.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext } from 'playwright-core';
import { countsSince, type RequestCounts } from '../../lib/store/request-counter.js';
import { freePort, startPostgres, startUnleash, UNLEASH_VERSION, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import { stopEach, withCleanUp } from './clean-up.js';
import { adminClient } from './seed.js';
import { apiProjectMaker, seedUiData, sqlProjectMaker, type SeedOutcome } from './ui-seed.js';
import { launchBrowser, logIn, measurePage, newContext, PAGE_NAMES, pagesFor, type PageRun, type RequestRecord, type UiPage, type UiServer } from './ui-pages.js';
import type { UiServerMessage, UiServerRequest } from './ui-server.js';
import { beforeAfterTable, median, medianRun, pageTable, requestCostTable, summarise, waterfall, type PageSummary, type RequestCost } from './ui-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(here, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'ui-bench');

export interface UiBenchArgs {
  /** Another tree of this project (an earlier commit, with node_modules) measured first on the same data. */
  before: string | undefined;
  /** How long a page may take to show before the run counts as failed. */
  timeoutMs: number;
  runs: number;
  flags: number;
  events: number;
  concurrency: number;
  pages: string[] | undefined;
  waterfall: boolean;
  preloadAb: boolean;
  /** The preloads the A/B's second side lacks (index.html's API preloads, its module preloads). */
  preloadAbDrops: PreloadKind[];
}

export type PreloadKind = 'api' | 'modules';
const PRELOAD_KINDS: readonly PreloadKind[] = ['api', 'modules'];

export function parseUiArgs(argv: string[]): UiBenchArgs {
  const { values } = parseArgs({
    args: argv, strict: true,
    options: {
      ui: { type: 'boolean' },
      'ui-runs': { type: 'string', default: '5' },
      'ui-flags': { type: 'string', default: '1000' },
      'ui-events': { type: 'string', default: '10000' },
      'ui-concurrency': { type: 'string', default: '8' },
      'ui-pages': { type: 'string' },
      'ui-timeout': { type: 'string', default: '120' },
      'ui-before': { type: 'string' },
      'ui-waterfall': { type: 'boolean', default: false },
      'ui-preload-ab': { type: 'boolean', default: false },
      'ui-preload-ab-drops': { type: 'string', default: 'api,modules' },
    },
  });
  const whole = (name: string, min: number): number => {
    const raw = values[name as keyof typeof values] as string;
    const value = Number(raw.replaceAll('_', ''));
    if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be a whole number ≥ ${min}, not ${raw}`);
    return value;
  };
  const pages = values['ui-pages']?.split(',').map((name) => name.trim());
  for (const name of pages ?? []) {
    if (!PAGE_NAMES.includes(name)) throw new Error(`--ui-pages: no page named "${name}"; the pages: ${PAGE_NAMES.join(', ')}`);
  }
  const preloadAbDrops = [...new Set(values['ui-preload-ab-drops'].split(',').map((kind) => kind.trim()))] as PreloadKind[];
  for (const kind of preloadAbDrops) {
    if (!PRELOAD_KINDS.includes(kind)) throw new Error(`--ui-preload-ab-drops: no preloads named "${kind}"; the kinds: ${PRELOAD_KINDS.join(', ')}`);
  }
  const before = values['ui-before'] ? resolve(values['ui-before']) : undefined;
  if (before && !existsSync(join(before, 'local', 'bench', 'ui-server.ts'))) {
    throw new Error(`--ui-before ${before}: no local/bench/ui-server.ts there (copy this one in when the code to compare predates it)`);
  }
  return { before, timeoutMs: whole('ui-timeout', 1) * 1000, runs: whole('ui-runs', 1), flags: whole('ui-flags', 1), events: whole('ui-events', 0), concurrency: whole('ui-concurrency', 1), pages, waterfall: values['ui-waterfall'] === true, preloadAb: values['ui-preload-ab'] === true, preloadAbDrops };
}

/** This service in a child process (ui-server.ts), and a way to read its DynamoDB request count. */
export interface OurServer {
  url: string;
  /** The same server with index.html lacking the preloads asked for, when asked for. */
  withoutPreloadsUrl: string | undefined;
  adminToken: string;
  counts(): Promise<RequestCounts>;
  stop(): Promise<void>;
}

/** `withoutPreloads`: the preloads a second door's index.html lacks; none, no second door. */
export async function startOurServer(password: string, root: string, dataDir: string | undefined, withoutPreloads: readonly PreloadKind[] = []): Promise<OurServer> {
  const port = await freePort();
  const withoutPreloadsPort = withoutPreloads.length > 0 ? await freePort() : undefined;
  const child: ChildProcess = fork(join(root, 'local', 'bench', 'ui-server.ts'), [], {
    cwd: root,
    // As `npm start` runs its server (scripts/start.ts says why).
    execArgv: ['--no-allocation-site-pretenuring', '--import', 'tsx'],
    env: {
      ...process.env, PORT: String(port), UNLEASH_URL: `http://127.0.0.1:${port}`, UNLEASH_DEFAULT_ADMIN_PASSWORD: password,
      ...(dataDir ? { UI_BENCH_DATA_DIR: dataDir } : {}),
      // A server of earlier code (--ui-before) may not read the kinds: it drops both.
      ...(withoutPreloadsPort ? { UI_BENCH_WITHOUT_PRELOADS_PORT: String(withoutPreloadsPort), UI_BENCH_WITHOUT_PRELOADS: withoutPreloads.join(',') } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const next = () => new Promise<UiServerMessage>((resolveMessage, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the UI bench server exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (message: UiServerMessage) => {
      child.off('exit', onExit);
      resolveMessage(message);
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    if (child.connected) child.send({ type: 'stop' } satisfies UiServerRequest);
    else child.kill('SIGTERM');
    await exited;
    clearTimeout(force);
  };
  const ready = await next().catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  if (ready.type !== 'ready') {
    await stop();
    throw new Error(`the UI bench server did not start: ${ready.type === 'failed' ? ready.error : ready.type}`);
  }
  let queue = Promise.resolve();
  return {
    url: ready.url,
    withoutPreloadsUrl: ready.withoutPreloadsUrl,
    adminToken: ready.adminToken,
    // One question at a time: the answers carry no id.
    counts: () => {
      const asked = queue.then(async () => {
        const answer = next();
        child.send({ type: 'counts' } satisfies UiServerRequest);
        const message = await answer;
        if (message.type !== 'counts') throw new Error(`expected counts, got ${message.type}`);
        return message.counts;
      });
      queue = asked.then(() => undefined, () => undefined);
      return asked;
    },
    stop,
  };
}

interface SideRuns {
  /** The first opening: for the first page, a visit with nothing cached. */
  warmup?: PageRun;
  runs: PageRun[];
  /** DynamoDB requests per run (ours only). */
  dynamo: number[];
}

export async function runUiBench(argv: string[]): Promise<void> {
  const args = parseUiArgs(argv);
  const pages = pagesFor(args.flags, args.timeoutMs).filter((page) => !args.pages || args.pages.includes(page.name));
  const password = 'Bench-admin-1';
  const log = (line: string) => console.error(line);
  // With --ui-before, both of our servers keep the table on disk, so the second starts on the first's data.
  const dataDir = args.before ? mkdtempSync(join(tmpdir(), 'toggles-ui-bench-data-')) : undefined;
  let ours: OurServer | undefined;
  let postgres: ReferencePostgres | undefined;
  let unleash: ReferenceUnleash | undefined;
  let browser: Browser | undefined;
  // Each stopped on its own, also when the run fails or is stopped with a signal (clean-up.ts).
  const stopAll = () => stopEach([
    () => browser?.close(), () => unleash?.stop(), () => postgres?.stop(), () => ours?.stop(),
    () => dataDir && rmSync(dataDir, { recursive: true, force: true }),
  ]);
  await withCleanUp(stopAll, async () => {
    const codes = args.before ? [{ label: 'ours before', root: args.before }, { label: 'ours', root: ROOT }] : [{ label: 'ours', root: ROOT }];
    log(`starting this service (npm start's runtime, fresh table${args.before ? ` on disk, code of ${args.before} first` : ' in memory'}) and Unleash on PostgreSQL`);
    ours = await startOurServer(password, codes[0]!.root, dataDir, args.preloadAb ? args.preloadAbDrops : []);
    postgres = await startPostgres();
    unleash = await startUnleash(postgres, { label: 'ui-bench' });
    const plan = { bigProjectFlags: args.flags, events: args.events, concurrency: args.concurrency };
    // Both at once: each waits mostly on its own server, and seeding 10,000 events takes minutes.
    log(`seeding this service at ${ours.url} and Unleash ${UNLEASH_VERSION} at ${unleash.url}: ${args.flags} flags in one project, ${args.events} events`);
    const [ourSeed, unleashSeed] = await Promise.all([
      seedUiData(adminClient(ours.url, ours.adminToken), apiProjectMaker(adminClient(ours.url, ours.adminToken)), plan, (line) => log(`  ours: ${line}`)),
      seedUiData(adminClient(unleash.url, unleash.adminToken), sqlProjectMaker(postgres.port, unleash.database), plan, (line) => log(`  Unleash: ${line}`)),
    ]);
    log(`  ours: ${describeSeed(ourSeed)}; Unleash: ${describeSeed(unleashSeed)}`);
    browser = await launchBrowser();
    const reference: UiServer = { label: 'Unleash', url: unleash.url, username: 'admin', password: unleash.adminPassword };

    const sections: string[] = [];
    const measured: Array<{ label: string; summaries: PageSummary[]; costs: RequestCost[] }> = [];
    for (const [step, code] of codes.entries()) {
      if (step > 0) {
        await ours.stop();
        ours = undefined;
        log(`starting ${code.label} (${code.root}) on the same table`);
        ours = await startOurServer(password, code.root, dataDir, args.preloadAb ? args.preloadAbDrops : []);
      }
      const server: UiServer = { label: code.label, url: ours.url, username: 'admin', password };
      // A third side, after Unleash: our server without the preloads (the two servers are one process).
      const withoutPreloads: UiServer | undefined = ours.withoutPreloadsUrl
        ? { label: `${code.label} without ${preloadsNamed(args.preloadAbDrops)}`, url: ours.withoutPreloadsUrl, username: 'admin', password }
        : undefined;
      const sides = [{ server, counts: ours.counts }, { server: reference }, ...(withoutPreloads ? [{ server: withoutPreloads, counts: ours.counts }] : [])];
      const results = await measurePages(browser, pages, sides, args.runs, log);
      const summaries = pages.map((target) => {
        const [oursRuns, unleashRuns] = results.get(target.name) as [SideRuns, SideRuns];
        return summarise(target.name, oursRuns.runs, unleashRuns.runs, oursRuns.dynamo);
      });
      const preloadAb = withoutPreloads ? preloadAbSection(pages, results, code.label, args.preloadAbDrops) : '';
      if (preloadAb) console.log(`\n${preloadAb}`);
      const waterfalls = args.waterfall ? waterfallSection(pages, results, code.label, withoutPreloads?.label) : '';
      if (waterfalls) console.log(`\n${waterfalls}`);
      log(`sending each API request of ${code.label} again alone, counting its DynamoDB requests`);
      const costs = await requestCosts(pages, results, browser, server, ours);
      measured.push({ label: code.label, summaries, costs });
      // Written as soon as each side is measured: a later failure keeps what was.
      mkdirSync(ARTIFACTS, { recursive: true });
      writeFileSync(join(ARTIFACTS, `ui-bench-${code.label.replace(/\W+/g, '-')}.md`), `${pageTable(summaries)}\n\n${firstVisitLine(pages[0], results)}\n\n${requestCostTable(costs.slice(0, 15))}\n`);
      writeFileSync(join(ARTIFACTS, `ui-bench-${code.label.replace(/\W+/g, '-')}.json`), JSON.stringify({ summaries, costs, runs: Object.fromEntries(results) }, null, 1));
      sections.push(
        `### ${code.label === 'ours' ? (args.before ? 'After: this code' : 'This code') : `Before: the code of ${code.root}`} against Unleash ${UNLEASH_VERSION}`, '',
        pageTable(summaries), '',
        firstVisitLine(pages[0], results), '',
        `#### ${code.label}: API requests sent again one at a time (the costliest 15 by DynamoDB requests, then time)`, '',
        requestCostTable(costs.slice(0, 15)), '',
        ...(preloadAb ? [preloadAb, ''] : []),
        ...(waterfalls ? [waterfalls, ''] : []),
      );
    }
    const heading = `## The admin UI, ${args.flags.toLocaleString('en')} flags in one project, ${ourSeed.events.toLocaleString('en')} events (Unleash: ${unleashSeed.events.toLocaleString('en')}); median of ${args.runs} runs after one warm-up, alternating with Unleash`;
    const report = [
      heading, '',
      ...(measured.length > 1 ? ['### Before and after, shown ms (ratio to Unleash in the same rounds)', '', beforeAfterTable(measured[0]!.summaries, measured[1]!.summaries), ''] : []),
      ...sections,
      `Seeding through the admin APIs: ours ${describeSeed(ourSeed)}; Unleash ${describeSeed(unleashSeed)}.`,
    ].join('\n');
    console.log(`\n${report}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'ui-bench.md'), `${report}\n`);
    writeFileSync(join(ARTIFACTS, 'ui-bench.json'), JSON.stringify({ args, ourSeed, unleashSeed, measured }, null, 1));
    log(`written to ${ARTIFACTS}/ui-bench.md and ui-bench.json`);
  });
}

/**
 * Each page: one warm-up opening on each side, then `runs` openings alternating between the
 * sides (on a shared machine other work slows whichever runs at the time). Each side logs in
 * in a browser context of its own; the login page opens in another, logged out.
 */
async function measurePages(
  browser: Browser, pages: UiPage[], sides: Array<{ server: UiServer; counts?: () => Promise<RequestCounts> }>, runs: number, log: (line: string) => void,
): Promise<Map<string, SideRuns[]>> {
  const contexts: BrowserContext[] = [];
  try {
    const loggedIn: BrowserContext[] = [];
    const loggedOut: BrowserContext[] = [];
    for (const side of sides) {
      const context = await newContext(browser);
      contexts.push(context);
      await logIn(context, side.server);
      loggedIn.push(context);
      const outside = await newContext(browser);
      contexts.push(outside);
      loggedOut.push(outside);
    }
    const results = new Map<string, SideRuns[]>();
    for (const target of pages) {
      log(`${target.name}: one warm-up, then ${runs} runs on each side, alternating`);
      const measured: SideRuns[] = sides.map(() => ({ runs: [], dynamo: [] }));
      for (let run = 0; run <= runs; run += 1) {
        // Two sides alternate as they always did. With a third, the order turns each round: an
        // opening right after one on the same server (the preloads' A/B) would otherwise always
        // be the same side's, and meet the server's work left from the one before.
        const order = sides.length > 2 ? sides.map((_, at) => (at + run) % sides.length) : sides.map((_, at) => at);
        for (const index of order) {
          const side = sides[index]!;
          const context = (target.loggedOut ? loggedOut : loggedIn)[index] as BrowserContext;
          const before = await side.counts?.();
          const opening = await measurePage(context, side.server, target, ARTIFACTS);
          const after = await side.counts?.();
          if (opening.error) log(`  ${side.server.label} run ${run}: ${opening.error}`);
          if (run === 0) {
            measured[index]!.warmup = opening;
            continue;
          }
          measured[index]!.runs.push(opening);
          if (before && after) measured[index]!.dynamo.push(countsSince(before, after).total);
        }
      }
      results.set(target.name, measured);
    }
    return results;
  } finally {
    for (const context of contexts) await context.close().catch(() => undefined);
  }
}

/** The first page's warm-up opening is the first visit of each side's browser context: nothing cached. */
function firstVisitLine(first: UiPage | undefined, results: Map<string, SideRuns[]>): string {
  const [ours, unleash] = (first ? results.get(first.name) : undefined) ?? [];
  const bytes = (run: PageRun | undefined) => (run ? run.requests.reduce((sum, request) => sum + request.bytes, 0) : Number.NaN);
  const kb = (value: number) => `${(value / 1024).toFixed(0)} KB`;
  return `First visit with an empty cache (${first?.name}, the warm-up opening): ours ${kb(bytes(ours?.warmup))} in ${ours?.warmup?.requests.length} requests, `
    + `shown in ${ours?.warmup?.shownMs} ms; Unleash ${kb(bytes(unleash?.warmup))} in ${unleash?.warmup?.requests.length} requests, shown in ${unleash?.warmup?.shownMs} ms.`;
}

/** What the A/B's second side lacks, in words: `API preloads`, `module preloads` or both. */
export function preloadsNamed(kinds: readonly PreloadKind[]): string {
  const names = kinds.map((kind) => (kind === 'api' ? 'API' : 'module'));
  return `${names.join(' and ')} preloads`;
}

/**
 * The preloads' A/B: each page's median shown time with them, without them and on Unleash, in the
 * same alternating rounds, and the time until the page's first API answer was in (with the
 * preloads, the preload's own request). Medians of each side's own openings; a page whose
 * openings sent no API request (none answered) has no first API answer: "–".
 */
function preloadAbSection(pages: UiPage[], results: Map<string, SideRuns[]>, label: string, dropped: readonly PreloadKind[]): string {
  const good = (side: SideRuns | undefined) => side?.runs.filter((run) => !run.error) ?? [];
  const shown = (side: SideRuns | undefined) => median(good(side).map((run) => run.shownMs));
  const firstApiEnd = (side: SideRuns | undefined) => {
    const ends = good(side).flatMap((run) => {
      const apiEnds = run.requests.filter((request) => request.api && Number.isFinite(request.endMs)).map((request) => request.endMs);
      return apiEnds.length > 0 ? [Math.min(...apiEnds)] : [];
    });
    return ends.length > 0 ? String(Math.round(median(ends))) : '–';
  };
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const rows = pages.map((target) => {
    const [withPreloads, unleash, without] = results.get(target.name) ?? [];
    const [a, b, u] = [shown(withPreloads), shown(without), shown(unleash)];
    return `| ${target.name} | ${Math.round(a)} | ${Math.round(b)} | ${ratio(a, b)} | ${Math.round(u)} | ${ratio(a, u)} | ${ratio(b, u)} | ${firstApiEnd(withPreloads)} | ${firstApiEnd(without)} | ${firstApiEnd(unleash)} |`;
  });
  return [
    `#### ${label}: index.html's ${preloadsNamed(dropped)}, A/B in the same rounds (medians, ms after the navigation began)`, '',
    '| page | shown with preloads | without | with / without | Unleash | with / Unleash | without / Unleash | first API answer in, with | without | Unleash |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

/** Each page's median opening on every side, one waterfall under the other. */
function waterfallSection(pages: UiPage[], results: Map<string, SideRuns[]>, label: string, withoutPreloadsLabel?: string): string {
  const parts = [`#### Waterfalls (${label}): each side's median opening`, ''];
  for (const target of pages) {
    const [ours, unleash, without] = results.get(target.name) ?? [];
    const sides = [[label, ours], ['Unleash', unleash], ...(withoutPreloadsLabel ? [[withoutPreloadsLabel, without] as const] : [])] as const;
    for (const [side, runs] of sides) {
      const run = runs ? medianRun(runs.runs) : undefined;
      if (run) parts.push(waterfall(`${target.name}, ${side}`, run), '');
    }
  }
  return parts.join('\n');
}

function describeSeed(seed: SeedOutcome): string {
  return `${seed.calls.toLocaleString('en')} admin calls (${seed.toggles.toLocaleString('en')} toggles) in ${seed.seconds.toFixed(0)} s, ${seed.events.toLocaleString('en')} events`;
}

/**
 * Every distinct GET API request our pages made, sent once more through a logged-in session
 * with nothing else in flight: its time and the DynamoDB requests it sent.
 */
async function requestCosts(pages: UiPage[], results: Map<string, SideRuns[]>, browser: Browser, server: UiServer, ours: OurServer): Promise<RequestCost[]> {
  const seen = new Map<string, string>();
  for (const target of pages) {
    const last = results.get(target.name)?.[0]?.runs.at(-1);
    for (const request of last?.requests ?? []) {
      if (request.api && request.method === 'GET' && !seen.has(request.path)) seen.set(request.path, target.name);
    }
  }
  const context = await newContext(browser);
  try {
    await logIn(context, server);
    const costs: RequestCost[] = [];
    for (const [path, page] of seen) {
      const before = await ours.counts();
      const started = Date.now();
      const answer = await context.request.get(`${ours.url}${path}`, { timeout: 120_000 }).catch(() => undefined);
      const ms = Date.now() - started;
      const after = await ours.counts();
      const spent = countsSince(before, after);
      costs.push({ page, path, status: answer?.status() ?? 0, ms, bytes: (await answer?.body().catch(() => undefined))?.length ?? 0, dynamo: spent.total, byOperation: spent.byOperation });
    }
    return costs.sort((a, b) => b.dynamo - a.dynamo || b.ms - a.ms);
  } finally {
    await context.close();
  }
}

export type { RequestRecord };
