/** The UI benchmark's tables: medians per page and side, and the cost of each of our API requests. */
import type { PageRun } from './ui-pages.js';

export interface SideSummary {
  runs: number;
  failed: number;
  shownMs: number;
  idleMs: number;
  apiRequests: number;
  /** Every request of the page (the UI's files too), bytes on the wire. */
  bytes: number;
  /** The slowest request of the run whose shown time is the median. */
  slowest: { path: string; ms: number } | undefined;
}

export interface PageSummary {
  page: string;
  ours: SideSummary;
  unleash: SideSummary;
  /** DynamoDB requests our server sent for one opening (median). */
  oursDynamo: number | undefined;
}

export interface RequestCost {
  page: string;
  path: string;
  status: number;
  ms: number;
  bytes: number;
  dynamo: number;
  byOperation: Record<string, number>;
}

export function median(values: number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

function side(runs: PageRun[]): SideSummary {
  const good = runs.filter((run) => !run.error);
  const byShown = [...good].sort((a, b) => a.shownMs - b.shownMs);
  const middle = byShown[Math.floor((byShown.length - 1) / 2)];
  const slowest = middle?.requests.filter((request) => request.api).sort((a, b) => b.ms - a.ms)[0];
  return {
    runs: runs.length,
    failed: runs.length - good.length,
    shownMs: median(good.map((run) => run.shownMs)),
    idleMs: median(good.map((run) => run.idleMs)),
    apiRequests: median(good.map((run) => run.requests.filter((request) => request.api).length)),
    bytes: median(good.map((run) => run.requests.reduce((sum, request) => sum + request.bytes, 0))),
    slowest: slowest ? { path: slowest.path, ms: slowest.ms } : undefined,
  };
}

export function summarise(page: string, ours: PageRun[], unleash: PageRun[], oursDynamo: number[]): PageSummary {
  return { page, ours: side(ours), unleash: side(unleash), oursDynamo: oursDynamo.length > 0 ? median(oursDynamo) : undefined };
}

const ms = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en') : '–');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? (a / b).toFixed(2) : '–');
const kb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024).toFixed(0)} KB` : '–');
const shortPath = (path: string) => {
  const [pathname, query] = path.split('?') as [string, string | undefined];
  return query ? `${pathname}?${query.length > 40 ? `${query.slice(0, 40)}…` : query}` : pathname;
};
const slow = (summary: SideSummary) => (summary.slowest ? `${shortPath(summary.slowest.path)} ${ms(summary.slowest.ms)}` : '–');
const failed = (summary: SideSummary) => (summary.failed > 0 ? ` (${summary.failed} of ${summary.runs} failed)` : '');

export function pageTable(pages: PageSummary[]): string {
  const lines = [
    '| page | shown ms ours | Unleash | ratio | network idle ms ours | Unleash | ratio | API requests ours / Unleash | bytes ours / Unleash | DynamoDB requests (ours) | slowest request ours (ms) | slowest Unleash (ms) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
  ];
  for (const { page, ours, unleash, oursDynamo } of pages) {
    lines.push(`| ${page}${failed(ours)}${failed(unleash)} | ${ms(ours.shownMs)} | ${ms(unleash.shownMs)} | ${ratio(ours.shownMs, unleash.shownMs)} | ${ms(ours.idleMs)} | ${ms(unleash.idleMs)} | ${ratio(ours.idleMs, unleash.idleMs)} | ${ours.apiRequests} / ${unleash.apiRequests} | ${kb(ours.bytes)} / ${kb(unleash.bytes)} | ${oursDynamo ?? '–'} | ${slow(ours)} | ${slow(unleash)} |`);
  }
  return lines.join('\n');
}

export function requestCostTable(costs: RequestCost[]): string {
  const lines = ['| page | request | status | ms | bytes | DynamoDB requests |', '| --- | --- | ---: | ---: | ---: | --- |'];
  for (const cost of costs) {
    const operations = Object.entries(cost.byOperation).map(([operation, count]) => `${count} ${operation}`).join(', ');
    lines.push(`| ${cost.page} | ${shortPath(cost.path)} | ${cost.status} | ${ms(cost.ms)} | ${cost.bytes.toLocaleString('en')} | ${cost.dynamo}${operations ? ` (${operations})` : ''} |`);
  }
  return lines.join('\n');
}

/** Shown time before and after, each with its ratio to Unleash measured in the same rounds. */
export function beforeAfterTable(before: PageSummary[], after: PageSummary[]): string {
  const lines = [
    '| page | before ms | Unleash | ratio | after ms | Unleash | ratio | DynamoDB requests before → after | API requests before → after |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const then of before) {
    const now = after.find((summary) => summary.page === then.page);
    if (!now) continue;
    lines.push(`| ${then.page} | ${ms(then.ours.shownMs)} | ${ms(then.unleash.shownMs)} | ${ratio(then.ours.shownMs, then.unleash.shownMs)} | ${ms(now.ours.shownMs)} | ${ms(now.unleash.shownMs)} | ${ratio(now.ours.shownMs, now.unleash.shownMs)} | ${then.oursDynamo ?? '–'} → ${now.oursDynamo ?? '–'} | ${then.ours.apiRequests} → ${now.ours.apiRequests} |`);
  }
  return lines.join('\n');
}

/** Characters of a waterfall's bar. */
const BAR_WIDTH = 56;

/** The headers a waterfall row names, shortened: compression, validator, caching and keep-alive. */
function headerNote(headers: Record<string, string>): string {
  const parts: string[] = [];
  if (headers['content-encoding']) parts.push(headers['content-encoding']);
  if (headers.etag) parts.push('etag');
  if (headers['last-modified']) parts.push('last-modified');
  if (headers['cache-control']) parts.push(`cc=${headers['cache-control'].replace(/\s+/g, '')}`);
  if (headers.connection) parts.push(`conn=${headers.connection}`);
  if (headers['keep-alive']) parts.push(`ka=${headers['keep-alive'].replace(/\s+/g, '')}`);
  return parts.join(' ');
}

/**
 * One opening as a waterfall: each request of the page's origin, in the order the browser
 * started them, from its start to its last byte (ms after the navigation began), the part spent
 * waiting for the first byte, whether it opened a connection, and a bar on a common scale with
 * the page's shown mark (`|`).
 */
export function waterfall(title: string, run: PageRun): string {
  const span = Math.max(run.shownMs, ...run.requests.map((request) => (Number.isFinite(request.endMs) ? request.endMs : request.startMs)), 1);
  const column = (at: number) => Math.min(BAR_WIDTH - 1, Math.max(0, Math.round((at / span) * (BAR_WIDTH - 1))));
  const shownAt = Number.isFinite(run.shownMs) ? column(run.shownMs) : -1;
  const bar = (start: number, end: number) => {
    const from = column(start);
    const to = Number.isFinite(end) ? column(end) : BAR_WIDTH - 1;
    return Array.from({ length: BAR_WIDTH }, (_, at) => (at >= from && at <= to ? '=' : at === shownAt ? '|' : ' ')).join('');
  };
  const num = (value: number) => (Number.isFinite(value) ? String(Math.round(value)) : '–').padStart(5);
  const busy = run.browser
    ? `; the browser's main thread busy ${Math.round(run.browser.taskMs)} ms until shown (script ${Math.round(run.browser.scriptMs)}, style ${Math.round(run.browser.recalcStyleMs)}, layout ${Math.round(run.browser.layoutMs)})`
    : '';
  const waiting = inFlightMs(run);
  const lines = [
    `${title}: shown at ${ms(run.shownMs)} ms, last request ended at ${ms(run.idleMs)} ms; until shown, a request of the page in flight ${ms(waiting.any)} ms `
      + `(an API request ${ms(waiting.api)} ms), none ${ms(run.shownMs - waiting.any)} ms${busy}${run.error ? `; FAILED: ${run.error}` : ''}`,
    '',
    '```',
    `start   end  wait new  st ${'0'.padEnd(BAR_WIDTH - String(Math.round(span)).length)}${Math.round(span)}  request  (answer headers)`,
  ];
  for (const request of run.requests) {
    const path = request.method === 'GET' ? shortPath(request.path) : `${request.method} ${shortPath(request.path)}`;
    lines.push(`${num(request.startMs)} ${num(request.endMs)} ${num(request.waitMs)} ${request.newConnection ? ' y ' : ' - '} ${String(request.status).padStart(3)} ${bar(request.startMs, request.endMs)}  ${path}  (${headerNote(request.headers)})`);
  }
  lines.push(`${' '.repeat(26)}${' '.repeat(Math.max(0, shownAt))}^ shown ${ms(run.shownMs)} ms`, '```');
  return lines.join('\n');
}

/**
 * How long, before the page was shown, at least one of its requests was in flight (any, and API
 * requests alone): the rest of the time to shown the browser was not waiting on a server at all.
 */
export function inFlightMs(run: PageRun): { any: number; api: number } {
  const union = (requests: PageRun['requests']) => {
    const spans = requests
      .filter((request) => Number.isFinite(request.endMs))
      .map((request) => [Math.max(0, request.startMs), Math.min(request.endMs, run.shownMs)] as const)
      .filter(([start, end]) => end > start)
      .sort((a, b) => a[0] - b[0]);
    let total = 0;
    let reached = 0;
    for (const [start, end] of spans) {
      if (end <= reached) continue;
      total += end - Math.max(start, reached);
      reached = end;
    }
    return total;
  };
  return { any: union(run.requests), api: union(run.requests.filter((request) => request.api)) };
}

/** The opening whose shown time is the median of a side's good runs (the one a waterfall shows). */
export function medianRun(runs: PageRun[]): PageRun | undefined {
  const good = runs.filter((run) => !run.error).sort((a, b) => a.shownMs - b.shownMs);
  return good[Math.floor((good.length - 1) / 2)] ?? runs[0];
}
