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
