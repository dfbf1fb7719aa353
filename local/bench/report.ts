/** The benchmark's printed tables, in Markdown so docs/performance.md can quote them as they are. */
import type { StoredStart } from './cost.js';
import { cpus, loadavg, totalmem } from 'node:os';
import type { AdminListCost } from './admin-lists.js';
import type { BundleReport } from './bundles.js';
import type { MetricsMinute, PollCost } from './cost.js';
import type { FrontendCost } from './frontend.js';
import { coreShare, limitOf, serverMicrosPerRequest, type RunCpu } from './cpu.js';
import type { LoadResult } from './load.js';
import type { PayloadComparison } from './payload.js';

export interface ScenarioResult {
  name: string;
  status: number;
  bytes: number;
  ours: LoadResult;
  dynamoPerPoll: number;
  bare: LoadResult;
  /** The share of the bare reference's req/s this scenario must reach. */
  target: number;
  oursCpu: RunCpu;
  bareCpu: RunCpu;
}

export function scenarioTable(results: ScenarioResult[]): string {
  const rows = results.map((r) => {
    const ratio = r.ours.requestsPerSecond / r.bare.requestsPerSecond;
    return [
      r.name, String(r.status), r.bytes.toLocaleString('en'), whole(r.ours.requestsPerSecond), ms(r.ours.p50), ms(r.ours.p99),
      r.dynamoPerPoll.toFixed(4), micros(serverMicrosPerRequest(r.oursCpu)), whole(r.bare.requestsPerSecond), ms(r.bare.p50), ms(r.bare.p99),
      micros(serverMicrosPerRequest(r.bareCpu)), `${(serverMicrosPerRequest(r.bareCpu) / serverMicrosPerRequest(r.oursCpu) * 100).toFixed(0)}%`,
      `${(ratio * 100).toFixed(0)}%`, `≥ ${(r.target * 100).toFixed(0)}% ${ratio >= r.target ? 'met' : 'MISSED'}`,
    ];
  });
  return markdown(
    [
      'scenario', 'status', 'bytes/response', 'req/s', 'p50 ms', 'p99 ms', 'DynamoDB req/poll', 'server CPU µs/req', 'bare req/s', 'bare p50',
      'bare p99', 'bare CPU µs/req', 'CPU ratio (bare/ours)', 'req/s ratio', 'target (req/s)',
    ],
    rows,
  );
}

/**
 * Per run: the server's CPU per request and core share, the load generator's core share, and
 * which one was the limit. Unleash's rows, when it ran, count its Node process and its
 * PostgreSQL together as the server (more than one process: its share can pass one core).
 */
export function limitTable(results: ScenarioResult[], unleash: Map<string, { load: LoadResult; cpu: RunCpu }> = new Map()): string {
  const row = (name: string, server: string, load: LoadResult, cpu: RunCpu) => [
    name, server, load.tool, whole(load.requestsPerSecond), micros(serverMicrosPerRequest(cpu)), percent(coreShare(cpu.serverCpuMs, cpu.wallMs)),
    percent(coreShare(cpu.loaderCpuMs, cpu.wallMs)), limitOf(cpu),
  ];
  return markdown(
    ['scenario', 'server', 'load generator', 'req/s', 'server CPU µs/req', 'server CPU (of one core)', 'load generator CPU (of one core)', 'limit'],
    results.flatMap((r) => {
      const theirs = unleash.get(r.name);
      return [
        row(r.name, 'ours', r.ours, r.oursCpu), row(r.name, 'bare node:http', r.bare, r.bareCpu),
        ...(theirs ? [row(r.name, 'Unleash (Node + PostgreSQL)', theirs.load, theirs.cpu)] : []),
      ];
    }),
  );
}

/** The payload built cold and rebuilt after one change: CPU, read units, bytes. */
export function costLines(flags: number, colds: PollCost[], change: PollCost | undefined, stored: StoredStart | undefined): string {
  const units = (n: number | undefined) => (n === undefined ? 'not counted (AWS_LIKE_DYNAMODB=0)' : `${n.toLocaleString('en')} read units`);
  const coldLine = (cold: PollCost, attempt: number) =>
    `- ${attempt === 0 ? 'first poll' : `poll ${attempt + 1}`} of a cold container (reads all ${flags.toLocaleString('en')} flags, builds the gzip payload): ${cold.cpuMs.toFixed(0)} ms CPU, ${cold.wallMs.toFixed(0)} ms wall, ${units(cold.readUnits)}, ${cold.bytes.toLocaleString('en')} bytes (status ${cold.status})${cold.pastTimeout ? '; longer than the function\'s timeout (10 s): under Lambda\'s deadline this poll is answered 503' : ''}`;
  const w = stored?.writer;
  return [
    ...colds.map(coldLine),
    ...(stored && w ? [
      `- the stored snapshot's writer (ADR 20, with each environment's stored answer, ADR 25; on the warm container): ${w.outcome}, ${w.pages} page(s), ${w.bytes.toLocaleString('en')} bytes, ${w.cpuMs.toFixed(0)} ms CPU, ${w.wallMs.toFixed(0)} ms wall, ${w.writeUnits === undefined ? 'write units not counted' : `${w.writeUnits.toLocaleString('en')} write units`}`,
      ...stored.polls.map((poll, attempt) => coldLine(poll, attempt).replace(`a cold container (reads all ${flags.toLocaleString('en')} flags,`, 'a cold container from the stored snapshot (reads its scope\'s stored answer and the change log,')),
    ] : []),
    change === undefined
      ? '- one change: not measured, no cold poll was answered 200'
      : `- first poll of a warm container after one flag changed (follows the change log, rebuilds the touched chunks): ${change.cpuMs.toFixed(1)} ms CPU, ${change.wallMs.toFixed(1)} ms wall, ${units(change.readUnits)}, ${change.bytes.toLocaleString('en')} bytes gzip (status ${change.status}); target ≤ 10 read units ${change.readUnits !== undefined && change.readUnits <= 10 ? 'met' : 'MISSED'}, ≤ 100 ms CPU ${change.cpuMs <= 100 ? 'met' : 'MISSED'}`,
    '- CPU is this process\'s over the poll, called in-process: the client handler, its DynamoDB client, and the AWS-like engine relaying the reads.',
  ].join('\n');
}

/** The Frontend API's warm path: time per answer and per 304, where it goes, the 304 share, DynamoDB. */
export function frontendLines(f: FrontendCost): string {
  const { steps, dynamo } = f;
  // The SDK poll's own: the revision at most once per interval, a token at most once a minute (TOKEN_CACHE_TTL_MS).
  const checks = Math.ceil(dynamo.wallMs / Math.max(1, dynamo.intervalMs)) + 1 + Math.ceil(dynamo.wallMs / 60_000);
  const operations = Object.entries(dynamo.byOperation).map(([operation, n]) => `${n} ${operation}`).join(', ') || 'none';
  return [
    `- context: ${f.users.toLocaleString('en')} end users (userId, sessionId, appName, properties[country]; GET with a frontend token, Origin allowed, gzip accepted), ${f.toggles.toFixed(0)} enabled toggles an answer on average, ${whole(f.bytes)} bytes of JSON, ${whole(f.sentBytes)} as sent`,
    `- warm 200 for a context not seen before: ${micros(f.answerMicros)} µs a request (target ≤ 1,000 µs ${f.answerMicros <= 1_000 ? 'met' : 'MISSED'}); its steps: context ${steps.context.toFixed(1)} µs, evaluation of every flag with unleash-client's engine ${micros(steps.evaluation)} µs, JSON.stringify ${micros(steps.json)} µs, ETag (sha1) ${micros(steps.etag)} µs; the rest is the router, token check, gzip, CORS and garbage collection`,
    `- warm 200 for a context answered before (same payload revision): ${micros(f.repeatedMicros)} µs (target ≤ 1,000 µs ${f.repeatedMicros <= 1_000 ? 'met' : 'MISSED'})`,
    `- the same users again with If-None-Match: ${percent(f.notModifiedShare)} answered 304, ${micros(f.notModifiedMicros)} µs a 304 (target ≤ 1,000 µs ${f.notModifiedMicros <= 1_000 ? 'met' : 'MISSED'})`,
    `- DynamoDB: ${dynamo.requests} requests (${operations}) over ${dynamo.calls.toLocaleString('en')} requests in ${(dynamo.wallMs / 1000).toFixed(1)} s, ${(dynamo.requests / Math.max(1, dynamo.calls)).toFixed(4)} a request: the SDK poll's, a revision check at most once per ${(dynamo.intervalMs / 1000).toFixed(0)} s interval and a token at most once a minute, whatever the flag count (≤ ${checks} here ${dynamo.requests <= checks ? 'met' : 'MISSED'})`,
  ].join('\n');
}

/**
 * The SDK's poll (spec 5.2.0, gzip) in bytes, ours against Unleash's on the same flags, with the
 * JSON it holds and that JSON gzipped as one stream at level 9 for reference.
 */
export function payloadTable(rows: PayloadComparison[], version: string): string {
  const bytes = (n: number) => n.toLocaleString('en');
  // The JSON's bytes are those the gzip answer holds; the poll without gzip has a column of its
  // own, since past Lambda's 6 MB ours is refused (400, ask for gzip) and its JSON was never sent.
  return markdown(
    [
      'flags', 'ours gzip', `Unleash ${version} gzip`, 'ours/Unleash', 'target (gzip ≤ Unleash\'s)', 'ours JSON (in the gzip)', 'Unleash JSON (in the gzip)',
      'poll without gzip: status (ours / Unleash)',
      'ours JSON, one gzip -9 stream', 'Unleash JSON, one gzip -9 stream', 'seeding s (ours / Unleash)', 'same flags checked',
    ],
    rows.map((r) => [
      r.flags.toLocaleString('en'), bytes(r.ours.gzipBytes), bytes(r.unleash.gzipBytes), (r.ours.gzipBytes / r.unleash.gzipBytes).toFixed(3),
      r.ours.gzipBytes <= r.unleash.gzipBytes ? 'met' : 'MISSED', bytes(r.ours.plainBytes), bytes(r.unleash.plainBytes),
      `${r.ours.plainStatus} / ${r.unleash.plainStatus}`,
      bytes(r.ours.oneStreamGzipBytes), bytes(r.unleash.oneStreamGzipBytes), `${r.ours.seededSeconds.toFixed(0)} / ${r.unleash.seededSeconds.toFixed(0)}`,
      `${r.checkedFlags.toLocaleString('en')} equal`,
    ]),
  );
}

export function metricsTable(minutes: MetricsMinute[]): string {
  const base = minutes[0]?.writeUnits;
  return markdown(
    ['SDK instances', 'toggles each (flags)', 'report batches', 'DynamoDB write units per minute', 'vs the first row', 'reports not accepted'],
    minutes.map((m) => [
      m.instances.toLocaleString('en'), `${m.toggles} (${m.first}–${m.first + m.toggles - 1})`, String(m.reportBatches), m.writeUnits === undefined ? 'not counted' : m.writeUnits.toLocaleString('en'),
      base && m.writeUnits !== undefined ? `${(m.writeUnits / base).toFixed(2)}×` : '',
      Object.entries(m.refused).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none',
    ]),
  );
}

export function adminListTable(costs: AdminListCost[]): string {
  return markdown(
    ['admin list', 'gzip', 'status', 'bytes as sent', 'wall ms', 'within the function\'s 10 s', 'read units', 'refusal'],
    costs.map((c) => [
      `${c.name} (\`${c.path}\`)`, c.gzip ? 'yes' : 'no', String(c.status), c.bytes.toLocaleString('en'), whole(c.wallMs),
      c.pastTimeout ? 'no: 503 under the stack\'s timeout' : 'yes',
      c.readUnits === undefined ? 'not counted' : whole(c.readUnits), c.refusal ?? '',
    ]),
  );
}

/**
 * Size targets without the AWS SDK: a function carries only the slices it serves. The SDK API's
 * function is the hot path (ADR 9); the strategies function, seven routes, shows what the admin
 * edge alone costs.
 */
const BUNDLE_TARGET_KB: Partial<Record<BundleReport['group'], number>> = { client: 225, strategies: 200 };
const ADMIN_BUNDLE_TARGET_KB = 450;
/** Module init of every function on this machine: the part of a cold start our code decides. */
const INIT_TARGET_MS = 150;

export function bundleTable(bundles: BundleReport[]): string {
  return markdown(
    ['function', 'bundle (minified)', 'without the AWS SDK', 'lib modules', 'format', 'AWS SDK', 'module init (median)', 'target (size without the AWS SDK, init)'],
    bundles.map((b) => {
      const kb = b.bytesWithoutAwsSdk / 1024;
      const size = BUNDLE_TARGET_KB[b.group] ?? ADMIN_BUNDLE_TARGET_KB;
      return [
        b.group, `${(b.bytes / 1024).toFixed(1)} KB`, `${kb.toFixed(1)} KB`, String(b.libModules), b.bundle.format, b.bundle.awsSdk, `${b.initMs.toFixed(0)} ms`,
        `≤ ${size} KB ${kb <= size ? 'met' : 'MISSED'}, ≤ ${INIT_TARGET_MS} ms ${b.initMs <= INIT_TARGET_MS ? 'met' : 'MISSED'}`,
      ];
    }),
  );
}

export function machine(): string {
  const cpu = cpus();
  return [
    `date: ${new Date().toISOString()}`,
    `machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}/${process.arch}`,
    `load average at the end (1/5/15 min): ${loadavg().map((n) => n.toFixed(2)).join(' / ')}`,
  ].join('\n');
}

function markdown(head: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

const whole = (n: number) => Math.round(n).toLocaleString('en');
const micros = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(0));
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
