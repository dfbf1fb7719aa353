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
 * --ui-timeout S (120: a page not shown by then is a failed run).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Browser, BrowserContext } from 'playwright-core';
import { countsSince, type RequestCounts } from '../../lib/store/request-counter.js';
import { freePort, startPostgres, startUnleash, UNLEASH_VERSION, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import { adminClient } from './seed.js';
import { apiProjectMaker, seedUiData, sqlProjectMaker, type SeedOutcome } from './ui-seed.js';
import { launchBrowser, logIn, measurePage, newContext, PAGE_NAMES, pagesFor, type PageRun, type RequestRecord, type UiPage, type UiServer } from './ui-pages.js';
import type { UiServerMessage, UiServerRequest } from './ui-server.js';
import { pageTable, requestCostTable, summarise, type PageSummary, type RequestCost } from './ui-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = resolve(here, '..', '..', 'test-artifacts', 'ui-bench');

export interface UiBenchArgs {
  /** How long a page may take to show before the run counts as failed. */
  timeoutMs: number;
  runs: number;
  flags: number;
  events: number;
  concurrency: number;
  pages: string[] | undefined;
}

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
  return { timeoutMs: whole('ui-timeout', 1) * 1000, runs: whole('ui-runs', 1), flags: whole('ui-flags', 1), events: whole('ui-events', 0), concurrency: whole('ui-concurrency', 1), pages };
}

/** This service in a child process (ui-server.ts), and a way to read its DynamoDB request count. */
interface OurServer {
  url: string;
  adminToken: string;
  counts(): Promise<RequestCounts>;
  stop(): Promise<void>;
}

async function startOurServer(password: string): Promise<OurServer> {
  const port = await freePort();
  const child: ChildProcess = fork(join(here, 'ui-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PORT: String(port), UNLEASH_URL: `http://127.0.0.1:${port}`, UNLEASH_DEFAULT_ADMIN_PASSWORD: password },
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
  let ours: OurServer | undefined;
  let postgres: ReferencePostgres | undefined;
  let unleash: ReferenceUnleash | undefined;
  let browser: Browser | undefined;
  const stopAll = async () => {
    await browser?.close().catch(() => undefined);
    await unleash?.stop();
    await postgres?.stop();
    await ours?.stop();
  };
  // Stopped with a signal, the run still stops Unleash (its own process group), PostgreSQL and our server.
  const onSignal = (signal: NodeJS.Signals) => void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log('starting this service (npm start\'s runtime, fresh in-memory table) and Unleash on PostgreSQL');
    ours = await startOurServer(password);
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
    const servers: Array<{ server: UiServer; context: BrowserContext; counts?: () => Promise<RequestCounts> }> = [];
    for (const [label, url, username, pass, counts] of [
      ['ours', ours.url, 'admin', password, ours.counts],
      ['Unleash', unleash.url, 'admin', unleash.adminPassword, undefined],
    ] as const) {
      const server: UiServer = { label, url, username, password: pass };
      const context = await newContext(browser);
      await logIn(context, server);
      servers.push({ server, context, ...(counts ? { counts } : {}) });
    }
    const loggedOut = await Promise.all(servers.map(() => newContext(browser!)));

    const results = new Map<string, SideRuns[]>();
    for (const target of pages) {
      log(`${target.name}: one warm-up, then ${args.runs} runs on each side, alternating`);
      const sides: SideRuns[] = servers.map(() => ({ runs: [], dynamo: [] }));
      for (let run = 0; run <= args.runs; run += 1) {
        for (const [index, side] of servers.entries()) {
          const context = target.loggedOut ? (loggedOut[index] as BrowserContext) : side.context;
          const before = await side.counts?.();
          const measured = await measurePage(context, side.server, target, ARTIFACTS);
          const after = await side.counts?.();
          if (measured.error) log(`  ${side.server.label} run ${run}: ${measured.error}`);
          if (run === 0) {
            sides[index]!.warmup = measured;
            continue;
          }
          sides[index]!.runs.push(measured);
          if (before && after) sides[index]!.dynamo.push(countsSince(before, after).total);
        }
      }
      results.set(target.name, sides);
    }

    const summaries: PageSummary[] = pages.map((target) => {
      const [oursRuns, unleashRuns] = results.get(target.name) as [SideRuns, SideRuns];
      return summarise(target.name, oursRuns.runs, unleashRuns.runs, oursRuns.dynamo);
    });
    log('sending each of our API requests again alone, counting its DynamoDB requests');
    const costs = await requestCosts(pages, results, servers[0]!.context, ours);

    const heading = `## The admin UI, ${args.flags.toLocaleString('en')} flags in one project, ${ourSeed.events.toLocaleString('en')} events (Unleash: ${unleashSeed.events.toLocaleString('en')}); median of ${args.runs} runs after one warm-up, alternating`;
    const report = [
      heading, '',
      pageTable(summaries), '',
      firstVisitLine(pages[0], results), '',
      `Seeding through the admin APIs: ours ${describeSeed(ourSeed)}; Unleash ${describeSeed(unleashSeed)}.`, '',
      '### Our API requests sent again one at a time (the costliest 15 by DynamoDB requests, then time)', '',
      requestCostTable(costs.slice(0, 15)),
    ].join('\n');
    console.log(`\n${report}`);
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, 'ui-bench.md'), `${report}\n`);
    writeFileSync(join(ARTIFACTS, 'ui-bench.json'), JSON.stringify({ args, ourSeed, unleashSeed, summaries, costs, runs: Object.fromEntries(results) }, null, 1));
    log(`written to ${ARTIFACTS}/ui-bench.md and ui-bench.json`);
  } finally {
    await stopAll();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
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

function describeSeed(seed: SeedOutcome): string {
  return `${seed.calls.toLocaleString('en')} admin calls (${seed.toggles.toLocaleString('en')} toggles) in ${seed.seconds.toFixed(0)} s, ${seed.events.toLocaleString('en')} events`;
}

/**
 * Every distinct GET API request our pages made, sent once more through the admin's browser
 * session with nothing else in flight: its time and the DynamoDB requests it sent.
 */
async function requestCosts(pages: UiPage[], results: Map<string, SideRuns[]>, context: BrowserContext, ours: OurServer): Promise<RequestCost[]> {
  const seen = new Map<string, string>();
  for (const target of pages) {
    const last = results.get(target.name)?.[0]?.runs.at(-1);
    for (const request of last?.requests ?? []) {
      if (request.api && request.method === 'GET' && !seen.has(request.path)) seen.set(request.path, target.name);
    }
  }
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
}

export type { RequestRecord };
