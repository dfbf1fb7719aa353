/**
 * The real Unleash 7.6.5 for `npm run bench` (local/unleash-reference.ts): seeded with the same
 * flags as our server, through its own admin API (the same calls local/bench/seed.ts makes to
 * ours), with a client token for `development`, so its SDK poll can be loaded beside ours.
 */
import { startPostgres, startUnleash, UNLEASH_VERSION, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import { pidListeningOn, postmasterOn, type MeteredProcesses } from './process-cpu.js';
import { serverMicrosPerRequest, type RunCpu } from './cpu.js';
import type { LoadResult } from './load.js';
import { adminClient, seedFlags } from './seed.js';

export interface BenchUnleash {
  version: string;
  url: string;
  /** A client token for `development` on every project, as our bench's SDK token. */
  clientToken: string;
  /** Seconds the seeding took. */
  seededSeconds: number;
  /**
   * Whose CPU is Unleash's server CPU: its Node process and its PostgreSQL cluster (the
   * postmaster and every backend and worker under it; the cluster serves this Unleash alone).
   * Undefined where /proc does not show them.
   */
  processes: MeteredProcesses | undefined;
  stop(): Promise<void>;
}

/** Starts PostgreSQL and Unleash, seeds `flags` flags through the admin API and makes a client token; stops both on any failure. */
export async function startBenchUnleash(flags: number, log: (line: string) => void): Promise<BenchUnleash> {
  const postgres: ReferencePostgres = await startPostgres();
  let unleash: ReferenceUnleash | undefined;
  const stop = async () => {
    await unleash?.stop();
    await postgres.stop();
  };
  try {
    unleash = await startUnleash(postgres, { label: 'bench' });
    log(`Unleash ${UNLEASH_VERSION} on ${unleash.url}; seeding ${flags} flags through its admin API`);
    const admin = adminClient(unleash.url, unleash.adminToken);
    const started = Date.now();
    // The same flags as local/bench/fast-seed.ts makes for ours (without feature variants, which Unleash 7 refuses).
    await seedFlags(admin, flags, 8);
    const seededSeconds = (Date.now() - started) / 1000;
    const token = (await admin('POST', '/api/admin/api-tokens', {
      tokenName: 'bench-sdk', type: 'client', environment: 'development', projects: ['*'],
    })) as { secret: string };
    // Unleash serves the client API from a cache it refreshes in the background: wait until it holds every flag.
    await untilServes(unleash.url, token.secret, flags);
    return { version: UNLEASH_VERSION, url: unleash.url, clientToken: token.secret, seededSeconds, processes: serverProcesses(unleash.url, postgres.port), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function serverProcesses(url: string, postgresPort: number): MeteredProcesses | undefined {
  const node = pidListeningOn(Number(new URL(url).port));
  const postmaster = postmasterOn(postgresPort);
  if (node === undefined || postmaster === undefined) return undefined;
  return { pids: [node, postmaster], childrenOf: [postmaster] };
}

async function untilServes(url: string, token: string, flags: number): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const res = await fetch(`${url}/api/client/features`, { headers: { authorization: token } });
    const served = res.ok ? ((await res.json()) as { features: unknown[] }).features.length : -1;
    if (served >= flags) return;
    if (attempt >= 120) throw new Error(`Unleash serves ${served} of ${flags} flags after a minute`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** One scenario's run against Unleash beside ours and the bare reference's. */
export interface UnleashRun {
  name: string;
  status: number;
  /** Bytes of Unleash's answer as sent. */
  bytes: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  load: LoadResult;
  /** Its Node process's and PostgreSQL's CPU over the measured run (serverCpuMs NaN where /proc did not show them). */
  cpu: RunCpu;
}

/**
 * The SDK's headers for Unleash: its client token instead of ours, and for a conditional
 * scenario Unleash's own ETag (from its answer to the same headers without it).
 */
export async function unleashHeaders(
  unleash: BenchUnleash, headers: Record<string, string>, conditional: boolean, capture: (url: string, headers: Record<string, string>) => Promise<{ headers: Record<string, string> }>,
): Promise<Record<string, string>> {
  const { 'if-none-match': _ours, ...rest } = headers;
  const own = { ...rest, authorization: unleash.clientToken };
  if (!conditional) return own;
  const answer = await capture(`${unleash.url}/api/client/features`, own);
  return answer.headers.etag ? { ...own, 'if-none-match': answer.headers.etag } : own;
}

export interface VersusUnleash {
  name: string;
  bytes: number;
  ours: number;
  bare: number;
  oursCpu: RunCpu;
  bareCpu: RunCpu;
  unleash: UnleashRun;
}

/**
 * Ours, Unleash and the bare reference per scenario: requests per second, server CPU per request
 * and the ratios of both (how many of our answers per one of theirs: by CPU, theirs over ours),
 * and each answer's bytes. The CPU ratios judge the servers whatever limited the runs.
 */
export function unleashTable(rows: VersusUnleash[], version: string): string {
  const header = [
    'scenario', 'ours req/s', `Unleash ${version} req/s`, 'bare Node, our bytes, req/s', 'ours/Unleash (req/s)', 'ours/bare (req/s)',
    'ours CPU µs/req', 'Unleash CPU µs/req (Node + PostgreSQL)', 'bare CPU µs/req', 'ours/Unleash (CPU)', 'ours/bare (CPU)',
    'our bytes', 'Unleash bytes', 'Unleash status', 'Unleash p99 ms',
  ];
  const whole = (n: number) => (Number.isNaN(n) ? '–' : Math.round(n).toLocaleString('en'));
  const ratio = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(2));
  const lines = rows.map((row) => {
    const ours = serverMicrosPerRequest(row.oursCpu);
    const theirs = serverMicrosPerRequest(row.unleash.cpu);
    const bare = serverMicrosPerRequest(row.bareCpu);
    return [
      row.name, whole(row.ours), whole(row.unleash.requestsPerSecond), whole(row.bare),
      ratio(row.ours / row.unleash.requestsPerSecond), ratio(row.ours / row.bare),
      whole(ours), whole(theirs), whole(bare), ratio(theirs / ours), ratio(bare / ours),
      row.bytes.toLocaleString('en'), row.unleash.bytes.toLocaleString('en'), String(row.unleash.status), row.unleash.p99.toFixed(0),
    ];
  });
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
