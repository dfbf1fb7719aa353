/**
 * Payload bytes against Unleash (issue 29): for each flag count, this service and Unleash 7.6.5
 * are seeded with the same flags (local/bench/fast-seed.ts for ours, its import for Unleash:
 * local/bench/unleash.ts), their SDK answers are checked to hold the same flags, and the bytes
 * of the poll an SDK makes (spec 5.2.0, gzip) are compared, with the JSON inside (what the poll
 * without gzip answers, up to Lambda's 6 MB for ours) and a one-stream gzip -9 of each side's
 * JSON beside them: the latter says how much of a difference is the compression and how much
 * the JSON.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { AWS_LIKE_BY_DEFAULT } from '../aws-like-dynamodb/engine.js';
import { startHttpServer } from '../http-server.js';
import { startLocalRuntime } from '../runtime.js';
import { startPostgres } from '../unleash-reference.js';
import { PATIENT_TIMEOUT_MS } from './admin-lists.js';
import { Running, withCleanUp } from './clean-up.js';
import { startBenchDynamo } from './dynamo.js';
import { seedFlagsFast } from './fast-seed.js';
import { capture, type CapturedResponse } from './reference.js';
import { adminClient } from './seed.js';
import { startSeededUnleash } from './unleash.js';

/** The poll SDKs make. */
const GZIP_POLL = { 'unleash-client-spec': '5.2.0', 'accept-encoding': 'gzip' };
/** The same answer uncompressed. */
const PLAIN_POLL = { 'unleash-client-spec': '5.2.0' };

export interface PayloadSide {
  gzipBytes: number;
  /** Bytes of the JSON the gzip answer holds. */
  plainBytes: number;
  /** The status of the same poll without gzip: ours answers 400 past Lambda's 6 MB. */
  plainStatus: number;
  /** The plain answer gzipped as one stream at level 9: the JSON's own compressibility. */
  oneStreamGzipBytes: number;
  seededSeconds: number;
}

export interface PayloadComparison {
  flags: number;
  ours: PayloadSide;
  unleash: PayloadSide;
  /** Flags both answers hold, checked equal (see sameFlags). */
  checkedFlags: number;
}

/**
 * Seeds, checks and measures each flag count in turn, on a fresh server and a fresh Unleash
 * (one PostgreSQL for all). Throws when the two answers do not hold the same flags: bytes of
 * different data compare nothing. A run stopped with Ctrl-C or SIGTERM (it takes minutes) stops
 * what it started first: Unleash runs in a process group of its own, PostgreSQL as a daemon.
 */
export async function comparePayloads(counts: number[], log: (line: string) => void): Promise<PayloadComparison[]> {
  const running = new Running();
  return withCleanUp(() => running.stopAll(), () => compareEach(counts, log, running));
}

async function compareEach(counts: number[], log: (line: string) => void, running: Running): Promise<PayloadComparison[]> {
  const postgres = await startPostgres();
  const stopPostgres = running.add(() => postgres.stop());
  try {
    const rows: PayloadComparison[] = [];
    for (const flags of counts) {
      const unleash = await startSeededUnleash(postgres, flags, log, running);
      try {
        log(`Unleash seeded with ${flags.toLocaleString('en')} flags in ${unleash.seededSeconds.toFixed(1)} s`);
        const theirs = await answers(`${unleash.url}/api/client/features`, unleash.clientToken);
        rows.push(await withOurServer(flags, log, running, async (url, token, seededSeconds) => {
          const ours = await answers(`${url}/api/client/features`, token);
          const oursParsed = JSON.parse(ours.json) as SdkAnswer;
          const differences = sameFlags(oursParsed, JSON.parse(theirs.json) as SdkAnswer);
          if (oursParsed.features.length !== flags) throw new Error(`our server serves ${oursParsed.features.length} flags, not the ${flags} seeded`);
          if (differences.length > 0) {
            throw new Error(`at ${flags} flags our answer and Unleash's differ (${differences.length} differences), first ones:\n${differences.slice(0, 5).join('\n')}`);
          }
          log(`${flags.toLocaleString('en')} flags: both answers hold the same flags; ours ${ours.gzip.body.length} bytes gzip, Unleash ${theirs.gzip.body.length}`);
          return { flags, ours: side(ours, seededSeconds), unleash: side(theirs, unleash.seededSeconds), checkedFlags: oursParsed.features.length };
        }));
      } finally {
        await unleash.stop();
      }
    }
    return rows;
  } finally {
    await stopPostgres();
  }
}

interface Answers {
  gzip: CapturedResponse;
  /** The JSON text the gzip answer holds. */
  json: string;
  plain: CapturedResponse;
}

async function answers(url: string, token: string): Promise<Answers> {
  const gzip = await capture(url, { authorization: token, ...GZIP_POLL });
  if (gzip.status !== 200) throw new Error(`${url} answered the gzip poll ${gzip.status}: ${gzip.body.toString('utf8').slice(0, 500)}`);
  if (gzip.headers['content-encoding'] !== 'gzip') throw new Error(`${url} answered the gzip poll without gzip (${gzip.headers['content-encoding'] ?? 'identity'})`);
  const json = gunzipSync(gzip.body).toString('utf8');
  const plain = await capture(url, { authorization: token, ...PLAIN_POLL });
  // Where the plain poll is answered, it holds the same answer (compared parsed: the two paths may order keys differently).
  if (plain.status === 200 && canonical(JSON.parse(json)) !== canonical(JSON.parse(plain.body.toString('utf8')))) {
    throw new Error(`${url}: the gzip answer does not hold the plain answer`);
  }
  return { gzip, json, plain };
}

function side({ gzip, json, plain }: Answers, seededSeconds: number): PayloadSide {
  const text = Buffer.from(json, 'utf8');
  return {
    gzipBytes: gzip.body.length, plainBytes: text.length, plainStatus: plain.status, seededSeconds,
    oneStreamGzipBytes: gzipSync(text, { level: constants.Z_BEST_COMPRESSION }).length,
  };
}

/** Our server on its own DynamoDB Local, seeded with `flags` flags, for as long as `body` runs. */
async function withOurServer<T>(
  flags: number, log: (line: string) => void, running: Running, body: (url: string, clientToken: string, seededSeconds: number) => Promise<T>,
): Promise<T> {
  const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'toggles-payload-'));
  const removeDataDir = running.add(() => rmSync(dataDir, { recursive: true, force: true }));
  const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
  let stopDynamo: (() => Promise<void>) | undefined;
  try {
    // DynamoDB Local is a Java process: a SIGTERM to the bench alone would leave it running.
    const dynamo = await startBenchDynamo(env, AWS_LIKE_BY_DEFAULT.bench);
    stopDynamo = running.add(() => dynamo.stop());
    const runtime = await startLocalRuntime({
      inMemory: true, dataDir,
      env: {
        ...env, INIT_CLIENT_API_TOKENS: clientToken, DYNAMODB_ENDPOINT: dynamo.service.endpoint, AWS_REGION: dynamo.service.region,
        DYNAMODB_ACCESS_KEY_ID: dynamo.service.accessKeyId, LOCAL_METRICS_WINDOW_MS: '0',
      },
    });
    try {
      // Patient, as the admin lists' server: a cold build at 10,000 flags can pass the function's 10 s on a busy machine, and bytes do not depend on time.
      const server = await startHttpServer(runtime.handlers, { port: 0, functionTimeoutMs: PATIENT_TIMEOUT_MS, integrationTimeoutMs: PATIENT_TIMEOUT_MS });
      try {
        log(`our server on ${server.url}; seeding ${flags.toLocaleString('en')} flags`);
        const started = Date.now();
        await seedFlagsFast(adminClient(server.url, runtime.generatedAdminToken as string), dynamo.direct, runtime.config.tableName, flags);
        return await body(server.url, clientToken, (Date.now() - started) / 1000);
      } finally {
        await server.close();
      }
    } finally {
      await runtime.stop();
    }
  } finally {
    await stopDynamo?.();
    await removeDataDir();
  }
}

export interface SdkAnswer {
  features: Record<string, unknown>[];
  segments?: { id: number; name?: string; constraints?: unknown[] }[];
}

/**
 * The differences between two SDK answers (spec 5.2.0) in what an SDK evaluates and reports:
 * the flags by name, each one's enabled state, type, project, description, impression data,
 * variants, dependencies (parent, enabled, variants), and its strategies in order (name,
 * parameters, constraints, strategy variants, and its segments by name and constraints: each
 * side numbers segments its own way, and different segments may hold the same constraints).
 * Empty when they hold the same flags.
 */
export function sameFlags(ours: SdkAnswer, theirs: SdkAnswer): string[] {
  const oursByName = evaluated(ours);
  const theirsByName = evaluated(theirs);
  const differences: string[] = [];
  for (const [name, flag] of oursByName) {
    const other = theirsByName.get(name);
    if (other === undefined) differences.push(`${name}: only in ours`);
    else if (other !== flag) differences.push(`${name}:\n  ours    ${flag}\n  Unleash ${other}`);
  }
  for (const name of theirsByName.keys()) if (!oursByName.has(name)) differences.push(`${name}: only in Unleash's`);
  return differences;
}

function evaluated(answer: SdkAnswer): Map<string, string> {
  const segments = new Map((answer.segments ?? []).map((segment) => [segment.id, { name: segment.name, constraints: (segment.constraints ?? []).map(constraint) }]));
  const flags = new Map<string, string>();
  for (const feature of answer.features) {
    const strategies = ((feature.strategies ?? []) as Record<string, unknown>[]).map((strategy) => ({
      name: strategy.name,
      parameters: strategy.parameters ?? {},
      constraints: ((strategy.constraints ?? []) as Record<string, unknown>[]).map(constraint),
      variants: ((strategy.variants ?? []) as Record<string, unknown>[]).map(variant),
      segments: ((strategy.segments ?? []) as number[]).map((id) => segments.get(id) ?? `missing segment ${id}`),
    }));
    flags.set(feature.name as string, canonical({
      enabled: feature.enabled, type: feature.type, project: feature.project, description: feature.description ?? null,
      impressionData: Boolean(feature.impressionData), variants: ((feature.variants ?? []) as Record<string, unknown>[]).map(variant),
      dependencies: ((feature.dependencies ?? []) as Record<string, unknown>[]).map(dependency), strategies,
    }));
  }
  return flags;
}

/** A constraint as evaluated: absent flags are false, a single `value` is kept beside `values`. */
function constraint(raw: unknown) {
  const c = raw as Record<string, unknown>;
  return {
    contextName: c.contextName, operator: c.operator, values: c.values ?? [], ...(c.value === undefined ? {} : { value: c.value }),
    inverted: Boolean(c.inverted), caseInsensitive: Boolean(c.caseInsensitive),
  };
}

/** A parent flag as evaluated: absent `enabled` means the parent must be enabled. */
function dependency(raw: Record<string, unknown>) {
  return { feature: raw.feature, enabled: raw.enabled ?? true, variants: raw.variants ?? [] };
}

function variant(raw: Record<string, unknown>) {
  return {
    name: raw.name, weight: raw.weight, weightType: raw.weightType, stickiness: raw.stickiness,
    payload: raw.payload ?? null, overrides: raw.overrides ?? [],
  };
}

/** JSON with object keys sorted, so equal values give equal text. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner);
}
