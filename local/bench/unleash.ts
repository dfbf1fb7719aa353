/**
 * The real Unleash 7.6.5 for `npm run bench` (local/unleash-reference.ts): seeded with the same
 * flags as our server (local/bench/fast-seed.ts: flag i is a copy of template i mod 60 under its
 * own name), through its import API, with a client token for `development`, so its SDK poll can
 * be loaded beside ours and its answers compared with ours flag for flag.
 *
 * Its admin API made about 330 flags a minute here (five calls a flag, each its own transaction
 * and event), its import API (`POST /api/admin/features-batch/import`, a few hundred flags a
 * call) about 2,400 at first and fewer as flags accumulate: the templates go through the
 * import, the copies are written into its database (copyFlagsInDatabase), as fast-seed.ts
 * writes ours into DynamoDB. Unleash refuses its import to admin tokens, so the bench logs in as
 * the admin and makes a personal access token.
 */
import { spawnSync } from 'node:child_process';
import { startPostgres, startUnleash, UNLEASH_VERSION, type ReferencePostgres, type ReferenceUnleash } from '../unleash-reference.js';
import type { Running } from './clean-up.js';
import { pidListeningOn, postmasterOn, type MeteredProcesses } from './process-cpu.js';
import { serverMicrosPerRequest, type RunCpu } from './cpu.js';
import type { LoadResult } from './load.js';
import { benchProject, PROJECT_FLAGS, TEMPLATES } from './fast-seed.js';
import { adminClient, benchFlag, flagName, progressBar, SEGMENTS, seedSegments, segmentName } from './seed.js';
import { sqlProjectMaker } from './ui-seed.js';

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

/**
 * Unleash's open-source build refuses a flag past UNLEASH_FEATURE_FLAGS_LIMIT (5,000 unless set).
 * Its other limits are far above what the bench makes: 2 strategies a flag and environment (30),
 * 2 constraints a strategy (30) with at most 5 values (250), 1 segment a strategy (5), 10
 * segments (300), one project per 10,000 flags (500).
 */
export const unleashLimits = (flags: number): Record<string, string> => ({ UNLEASH_FEATURE_FLAGS_LIMIT: String(Math.max(5_000, flags)) });

/**
 * Starts PostgreSQL and Unleash, seeds `flags` flags through the import API and makes a client
 * token; stops both on any failure. With `running`, both are in it from their start (see
 * startSeededUnleash), so a signal's clean-up stops them even while Unleash is being seeded.
 */
export async function startBenchUnleash(flags: number, log: (line: string) => void, running?: Running): Promise<BenchUnleash> {
  const postgres: ReferencePostgres = await startPostgres();
  const stopPostgres = running ? running.add(() => postgres.stop()) : () => postgres.stop();
  try {
    const unleash = await startSeededUnleash(postgres, flags, log, running);
    return {
      ...unleash,
      stop: async () => {
        await unleash.stop();
        await stopPostgres();
      },
    };
  } catch (error) {
    await stopPostgres();
    throw error;
  }
}

/**
 * Unleash on a new database of `postgres`, seeded with `flags` flags as fast-seed.ts seeds ours:
 * the templates through its import API, the copies written into its database (the templates'
 * rows under each copy's name, as fast-seed.ts copies our stored items), then Unleash started
 * again on that database so that nothing it holds in memory predates the copies. `stop` stops
 * Unleash alone. With `running`, each Unleash started is in it from its start, so a signal's
 * clean-up stops one interrupted while it is seeded (minutes at 10,000 flags).
 */
export async function startSeededUnleash(postgres: ReferencePostgres, flags: number, log: (line: string) => void, running?: Running): Promise<BenchUnleash> {
  const env = unleashLimits(flags);
  const stopOf = (instance: ReferenceUnleash): (() => Promise<void>) => (running ? running.add(() => instance.stop()) : () => instance.stop());
  let unleash: ReferenceUnleash = await startUnleash(postgres, { label: 'bench', env });
  let stopUnleash = stopOf(unleash);
  try {
    const templates = Math.min(flags, TEMPLATES);
    log(`Unleash ${UNLEASH_VERSION} on ${unleash.url}; seeding ${flags.toLocaleString('en')} flags: ${templates} through its import API, the rest copies of them in its database`);
    const admin = adminClient(unleash.url, unleash.adminToken);
    const started = Date.now();
    await seedSegments(admin);
    const makeProject = sqlProjectMaker(postgres.port, unleash.database);
    for (let index = PROJECT_FLAGS; index < flags; index += PROJECT_FLAGS) await makeProject(benchProject(index));
    await importFlags(adminClient(unleash.url, await personalToken(unleash)), templates);
    if (flags > templates) {
      copyFlagsInDatabase(postgres.port, unleash.database, templates, flags);
      await stopUnleash();
      unleash = await startUnleash(postgres, { database: unleash.database, env });
      stopUnleash = stopOf(unleash);
    }
    const seededSeconds = (Date.now() - started) / 1000;
    const token = (await adminClient(unleash.url, unleash.adminToken)('POST', '/api/admin/api-tokens', {
      tokenName: 'bench-sdk', type: 'client', environment: 'development', projects: ['*'],
    })) as { secret: string };
    // Unleash serves the client API from a cache it refreshes in the background: wait until it holds every flag.
    await untilServes(unleash.url, token.secret, flags);
    return { version: UNLEASH_VERSION, url: unleash.url, clientToken: token.secret, seededSeconds, processes: serverProcesses(unleash.url, postgres.port), stop: stopUnleash };
  } catch (error) {
    await stopUnleash();
    throw error;
  }
}

/**
 * Flags `templates` to `count - 1` as copies of flag i mod `templates`, in one transaction of
 * Unleash's database: each template's rows (the flag, its environments, strategies with new ids
 * and their segments, tags, lifecycle) with its name replaced by the copy's wherever it appears,
 * in the copy's project. Its import made about 40 flags a second here, slower as flags
 * accumulate (10,000 took 6 minutes); this takes seconds. Rows go in in name order, as flags
 * made one after the other would be stored: Unleash's SDK answer has no ORDER BY, so it lists
 * flags in whatever order its query plan returns these rows (at 10,000 flags, interleaved
 * name-ordered runs, the same whether the copies were written in name order or not).
 */
export function copyFlagsInDatabase(postgresPort: number, database: string, templates: number, count: number): void {
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const rows: string[] = [];
  for (let index = templates; index < count; index += 1) {
    rows.push(`(${text(flagName(index))}, ${text(flagName(index % templates))}, ${text(benchProject(index))})`);
  }
  const values: string[] = [];
  for (let first = 0; first < rows.length; first += 1_000) values.push(`INSERT INTO bench_copies VALUES ${rows.slice(first, first + 1_000).join(',\n')};`);
  const renamed = (column: string) => `replace(${column}::text, s.feature_name, sc.name)::jsonb`;
  const sql = `BEGIN;
CREATE TEMP TABLE bench_copies (name text PRIMARY KEY, template text NOT NULL, project text NOT NULL);
${values.join('\n')}
INSERT INTO features (name, description, variants, type, stale, project, impression_data, potentially_stale, created_by_user_id, archived)
  SELECT c.name, replace(f.description, c.template, c.name), f.variants, f.type, f.stale, c.project, f.impression_data, f.potentially_stale, f.created_by_user_id, f.archived
  FROM bench_copies c JOIN features f ON f.name = c.template ORDER BY c.name;
INSERT INTO feature_environments (environment, feature_name, enabled, variants)
  SELECT e.environment, c.name, e.enabled, e.variants FROM bench_copies c JOIN feature_environments e ON e.feature_name = c.template ORDER BY c.name, e.environment;
CREATE TEMP TABLE bench_strategy_copies AS
  SELECT s.id AS template_id, c.name, c.project, upper(substr(md5(s.id || c.name), 1, 26)) AS id
  FROM bench_copies c JOIN feature_strategies s ON s.feature_name = c.template;
INSERT INTO feature_strategies (id, feature_name, project_name, environment, strategy_name, parameters, constraints, sort_order, title, disabled, variants, created_by_user_id)
  SELECT sc.id, sc.name, sc.project, s.environment, s.strategy_name, ${renamed('s.parameters')}, ${renamed('s.constraints')}, s.sort_order, s.title, s.disabled, ${renamed('s.variants')}, s.created_by_user_id
  FROM bench_strategy_copies sc JOIN feature_strategies s ON s.id = sc.template_id ORDER BY sc.name, s.sort_order;
INSERT INTO feature_strategy_segment (feature_strategy_id, segment_id)
  SELECT sc.id, g.segment_id FROM bench_strategy_copies sc JOIN feature_strategy_segment g ON g.feature_strategy_id = sc.template_id ORDER BY sc.name;
INSERT INTO feature_tag (feature_name, tag_type, tag_value, created_by_user_id)
  SELECT c.name, t.tag_type, t.tag_value, t.created_by_user_id FROM bench_copies c JOIN feature_tag t ON t.feature_name = c.template ORDER BY c.name;
INSERT INTO feature_lifecycles (feature, stage, status, status_value)
  SELECT c.name, l.stage, l.status, l.status_value FROM bench_copies c JOIN feature_lifecycles l ON l.feature = c.template ORDER BY c.name;
COMMIT;
`;
  const result = spawnSync('psql', ['-h', '127.0.0.1', '-p', String(postgresPort), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-q', '-f', '-'], {
    input: sql, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`psql could not copy the flags: ${result.stderr}`);
}

/** Import bodies are kept under this: Unleash parses at most 500 kB on the import route. */
const IMPORT_BODY_BYTES = 400_000;

/**
 * Flags 0 to `count - 1` through Unleash's import, as createFlag makes them through our admin
 * API: in project benchProject(i), with their strategies in order, their segment, their tag, on
 * in `development`. Imports run one at a time: two at once abort each other's transaction.
 */
export async function importFlags(user: (method: string, path: string, body?: unknown) => Promise<unknown>, count: number): Promise<void> {
  // A segment's id in the import is its index among the import's `segments`, which Unleash maps to its own by name.
  const segments = Array.from({ length: SEGMENTS }, (_, id) => ({ id, name: segmentName(id) }));
  const bar = progressBar(count);
  let batch: ImportData = emptyBatch();
  let batchBytes = 0;
  let project = benchProject(0);
  const send = async () => {
    if (batch.features.length === 0) return;
    await user('POST', '/api/admin/features-batch/import', { project, environment: 'development', data: { ...batch, segments, tagTypes: [{ name: 'simple' }] } });
    for (let sent = 0; sent < batch.features.length; sent += 1) bar.tick();
    batch = emptyBatch();
    batchBytes = 0;
  };
  try {
    for (let index = 0; index < count; index += 1) {
      const { feature, strategies, tag } = benchFlag(index, index % SEGMENTS);
      const flag: ImportData = {
        features: [{ ...feature, project: benchProject(index) }],
        featureStrategies: strategies.map((strategy, sortOrder) => ({ ...strategy, featureName: feature.name, sortOrder })),
        featureEnvironments: [{ name: feature.name, featureName: feature.name, environment: 'development', enabled: true }],
        featureTags: [{ featureName: feature.name, tagType: tag.type, tagValue: tag.value }],
      };
      const bytes = JSON.stringify(flag).length;
      if (benchProject(index) !== project || batchBytes + bytes > IMPORT_BODY_BYTES) await send();
      project = benchProject(index);
      for (const key of Object.keys(batch) as (keyof ImportData)[]) batch[key].push(...flag[key]);
      batchBytes += bytes;
    }
    await send();
  } finally {
    bar.done();
  }
}

interface ImportData {
  features: Record<string, unknown>[];
  featureStrategies: Record<string, unknown>[];
  featureEnvironments: Record<string, unknown>[];
  featureTags: Record<string, unknown>[];
}

const emptyBatch = (): ImportData => ({ features: [], featureStrategies: [], featureEnvironments: [], featureTags: [] });

/**
 * A personal access token of the admin user: Unleash's import refuses admin API tokens. The
 * session from the login is sometimes not yet stored when the next request comes, so the token
 * request is tried again after a fresh login.
 */
async function personalToken(unleash: ReferenceUnleash): Promise<string> {
  for (let attempt = 1; ; attempt += 1) {
    const login = await fetch(`${unleash.url}/auth/simple/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: unleash.adminPassword }),
    });
    const cookie = login.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ');
    const res = await fetch(`${unleash.url}/api/admin/user/tokens`, {
      method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify({ description: 'bench import', expiresAt: '2100-01-01T00:00:00Z' }),
    });
    if (res.ok) return ((await res.json()) as { secret: string }).secret;
    if (attempt >= 5) throw new Error(`Unleash made no personal access token: login ${login.status}, token ${res.status} ${await res.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
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
