/**
 * `npm run bench`: the SDK poll against its physical limit (issue 6). Starts the local server
 * on an in-memory DynamoDB Local behind the AWS-like engine (DynamoDB's transaction conflicts
 * and per-partition throughput; AWS_LIKE_DYNAMODB=0 for DynamoDB Local alone), seeds N
 * realistic flags through the admin API, then loads four SDK scenarios with autocannon (from a child process) and, in the same run, a bare
 * `node:http` server replaying the identical bytes. Prints one table, then each function's
 * bundle size and module init time. Options: --flags N (1000), --duration S (10),
 * --warmup S (3), --connections C (50), --rounds R (2), --no-bundles.
 *
 * On a shared machine other work only ever slows a run down, so each scenario alternates our
 * server and the reference for R rounds and keeps each one's best round.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { countsSince, type RequestCounter } from '../../lib/store/request-counter.js';
import { startHttpServer } from '../local/http-server.js';
import { AWS_LIKE_BY_DEFAULT, awsLikeEnabled } from '../local/aws-like-dynamodb/engine.js';
import { startLocalRuntime } from '../local/runtime.js';
import { bundleReports } from './bundles.js';
import { handlerMicros } from './handler-cost.js';
import type { LoadJob, LoadResult } from './load.js';
import { capture, startBareServer } from './reference.js';
import { bundleTable, machine, scenarioTable, type ScenarioResult } from './report.js';
import { adminClient, seedFlags } from './seed.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

const { values: args } = parseArgs({
  options: {
    flags: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '2' },
    'no-bundles': { type: 'boolean', default: false },
  },
});
const load = {
  duration: Number(args.duration), warmup: Number(args.warmup), connections: Number(args.connections), rounds: Number(args.rounds),
};

interface Scenario {
  name: string;
  headers: Record<string, string>;
  /** Sends the ETag of the previous scenario's answer as If-None-Match. */
  conditional: boolean;
  target: number;
}

/** What SDKs send, step by step: the spec header, then gzip, then the ETag they hold. */
const SDK = { 'unleash-client-spec': '5.2.0', 'accept-encoding': 'gzip' };
const SCENARIOS: Scenario[] = [
  { name: 'plain', headers: {}, conditional: false, target: 0.8 },
  { name: 'spec 5.2.0', headers: { 'unleash-client-spec': '5.2.0' }, conditional: false, target: 0.8 },
  { name: 'spec + gzip', headers: SDK, conditional: false, target: 0.8 },
  { name: '304 (If-None-Match)', headers: SDK, conditional: true, target: 0.5 },
];

const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'toggles-bench-'));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
const awsLike = awsLikeEnabled(env, AWS_LIKE_BY_DEFAULT.bench);
const runtime = await startLocalRuntime({
  inMemory: true, dataDir, env: { ...env, INIT_CLIENT_API_TOKENS: clientToken }, awsLikeDefaultOn: AWS_LIKE_BY_DEFAULT.bench,
});
const dynamo = awsLike ? 'in-memory DynamoDB Local behind the AWS-like engine' : 'in-memory DynamoDB Local, AWS_LIKE_DYNAMODB=0';
const server = await startHttpServer(runtime.handlers, { port: 0 });
const loader = fork(join(here, 'load.ts'), [], { execArgv: ['--import', 'tsx'] });
try {
  console.error(`local server on ${server.url} (${dynamo}); seeding ${args.flags} flags through the admin API`);
  const admin = adminClient(server.url, runtime.generatedAdminToken as string);
  const seeding = Date.now();
  await seedFlags(admin, Number(args.flags));
  console.error(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s; ${admin.resent()} admin calls sent again after a 503`);
  const results: ScenarioResult[] = [];
  const handlerCost: string[] = [];
  let etag: string | undefined;
  for (const scenario of SCENARIOS) {
    const headers = { authorization: clientToken, ...scenario.headers, ...(scenario.conditional && etag ? { 'if-none-match': etag } : {}) };
    const { result, answerEtag } = await runScenario(scenario, headers);
    results.push(result);
    handlerCost.push(`${scenario.name} ${(await handlerMicros(runtime.handlers.client, headers)).toFixed(1)} µs`);
    etag = answerEtag;
  }
  console.log(`\n## SDK poll, ${args.flags} flags, ${load.connections} connections, ${load.duration} s after ${load.warmup} s warm-up, best of ${load.rounds} rounds\n`);
  console.log(scenarioTable(results));
  console.log(`\nOur path per poll, in-process (API Gateway event to Lambda answer, no network): ${handlerCost.join(', ')}`);
  if (!args['no-bundles']) {
    console.error('bundling each function and timing its module init');
    console.log('\n## Functions\n');
    console.log(bundleTable(await bundleReports(root)));
  }
  console.log(`\n${machine()}; ${dynamo}`);
} finally {
  loader.kill();
  await server.close();
  await runtime.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function runScenario(scenario: Scenario, headers: Record<string, string>) {
  const url = `${server.url}/api/client/features`;
  const answer = await capture(url, headers);
  console.error(`${scenario.name}: ${answer.status}, ${answer.body.length} bytes; ${load.rounds} rounds of our server, then the bare reference`);
  const bare = await startBareServer(answer);
  try {
    let ours: Awaited<ReturnType<typeof measure>> | undefined;
    let reference: Awaited<ReturnType<typeof measure>> | undefined;
    for (let round = 0; round < load.rounds; round += 1) {
      ours = best(ours, await measure(url, headers, runtime.services.dynamoRequests));
      reference = best(reference, await measure(bare.url, headers));
    }
    const result: ScenarioResult = {
      name: scenario.name, status: answer.status, bytes: answer.body.length, ours: ours!.result,
      dynamoPerPoll: ours!.dynamoPerPoll, bare: reference!.result, target: scenario.target,
    };
    return { result, answerEtag: answer.headers.etag };
  } finally {
    await bare.close();
  }
}

function best<T extends { result: LoadResult }>(kept: T | undefined, next: T): T {
  return kept && kept.result.requestsPerSecond >= next.result.requestsPerSecond ? kept : next;
}

/** Warm-up, then the measured run; DynamoDB requests are counted over the measured run only. */
async function measure(url: string, headers: Record<string, string>, counter?: RequestCounter) {
  const job = { url, headers, connections: load.connections };
  await send(loader, { ...job, warmup: 0, duration: load.warmup });
  const before = counter?.snapshot();
  const result = await send(loader, { ...job, warmup: 0, duration: load.duration });
  const requests = before && counter ? countsSince(before, counter.snapshot()).total : 0;
  return { result, dynamoPerPoll: result.total > 0 ? requests / result.total : 0 };
}

function send(child: ChildProcess, job: LoadJob): Promise<LoadResult> {
  return new Promise((resolvePromise, reject) => {
    child.once('message', (message: { ok: boolean; result?: LoadResult; error?: string }) =>
      message.ok ? resolvePromise(message.result as LoadResult) : reject(new Error(message.error)),
    );
    child.send(job);
  });
}
