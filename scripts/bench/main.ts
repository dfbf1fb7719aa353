/**
 * `npm run bench`: the SDK poll against its physical limit (issue 6). Starts the local server
 * on an in-memory DynamoDB Local behind the AWS-like engine (DynamoDB's transaction conflicts
 * and per-partition throughput; AWS_LIKE_DYNAMODB=0 for DynamoDB Local alone), seeds N
 * realistic flags (60 through the admin API, the rest copies written straight to DynamoDB Local
 * 25 items at a time; 10,000 flags a project), measures what one change costs (CPU and read
 * units of the payload rebuild), what a minute of SDK metrics writes and what the admin lists
 * answer through the local server (status, bytes, time, read units), and what a warm function
 * spends on the Frontend API per page view (local/bench/frontend.ts), then loads four SDK
 * scenarios with autocannon (from a child process) and, in the same run, a bare `node:http`
 * server replaying the identical bytes.
 * Each run reports the server's own CPU time per request (which does not depend on the load
 * generator) and the load generator's CPU, and says which one limited it. Then each function's
 * bundle size and module init time. Options: --flags N (1000), --duration S (10), --warmup S (3),
 * --connections C (50), --rounds R (2), --metrics-instances LIST (10,100,1000; empty: none),
 * --no-bundles, --no-unleash (the same polls against Unleash 7.6.5 seeded with the same flags,
 * local/bench/unleash.ts), --payload-flags LIST (1000,10000; empty: none): the SDK poll's bytes
 * against Unleash's at each count, on servers of their own, checked to hold the same flags
 * (local/bench/payload.ts); `--payload` runs that comparison alone. `--ui` measures the admin UI
 * against Unleash's instead (local/bench/ui.ts).
 *
 * On a shared machine other work only ever slows a run down, so each scenario alternates our
 * server and the reference for R rounds and keeps each one's best round.
 *
 * package.json runs it with node's `--no-allocation-site-pretenuring`, as `npm start` (the local
 * server's process; scripts/start.ts says why).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus } from 'node:os';
import { countsSince, type RequestCounter } from '../../lib/store/request-counter.js';
import { startHttpServer } from '../../local/http-server.js';
import { AWS_LIKE_BY_DEFAULT } from '../../local/aws-like-dynamodb/engine.js';
import { startLocalRuntime } from '../../local/runtime.js';
import { adminListCosts, PATIENT_TIMEOUT_MS, type AdminListCost } from '../../local/bench/admin-lists.js';
import { parseBenchArgs } from '../../local/bench/args.js';
import { bundleReports } from '../../local/bench/bundles.js';
import { measureWalks, walkLines } from '../../local/bench/walks.js';
import { changeCost, coldPolls, metricsMinute, storedSnapshotStart, type MetricsMinute } from '../../local/bench/cost.js';
import { busyShare, machineTicks, type RunCpu } from '../../local/bench/cpu.js';
import { startBenchDynamo } from '../../local/bench/dynamo.js';
import { PROJECT_FLAGS, seedFlagsFast } from '../../local/bench/fast-seed.js';
import { frontendCost, usersFor, type FrontendCost } from '../../local/bench/frontend.js';
import { ofrepCost, ofrepLines } from '../../local/bench/ofrep.js';
import { handlerCalls, handlerMicros } from '../../local/bench/handler-cost.js';
import type { LoadJob, LoadResult } from '../../local/bench/load.js';
import { capture, startBareServer } from '../../local/bench/reference.js';
import { adminListTable, bundleTable, costLines, frontendLines, limitTable, machine, metricsTable, payloadTable, scenarioTable, type ScenarioResult } from '../../local/bench/report.js';
import { Running, stopEach, withCleanUp } from '../../local/bench/clean-up.js';
import { comparePayloads } from '../../local/bench/payload.js';
import { UNLEASH_VERSION } from '../../local/unleash-reference.js';
import { adminClient } from '../../local/bench/seed.js';
import { startBenchUnleash, unleashHeaders, unleashTable, type BenchUnleash, type UnleashRun, type VersusUnleash } from '../../local/bench/unleash.js';
import { ProcessCpuMeter, type MeteredProcesses } from '../../local/bench/process-cpu.js';
import { loadTool } from '../../local/bench/wrk.js';
import { localGatewayCost } from '../../local/bench/local-gateway.js';
import { localApiGateway } from '../../local/http-server.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');

// --ui: the admin UI against Unleash's in Chromium instead (local/bench/ui.ts), with its own options.
if (process.argv.includes('--ui')) {
  const { runUiBench } = await import('../../local/bench/ui.js');
  await runUiBench(process.argv.slice(2));
  process.exit(0);
}

const args = parseBenchArgs(process.argv.slice(2));
const load = args;

// --payload: only the payload bytes against Unleash's, at each of --payload-flags (local/bench/payload.ts).
if (process.argv.includes('--payload')) {
  console.log(await payloadSection(args.payloadFlags));
  process.exit(0);
}

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
const frontendToken = `*:development.${randomBytes(28).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'toggles-bench-'));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
const dynamo = await startBenchDynamo(env, AWS_LIKE_BY_DEFAULT.bench);
const runtime = await startLocalRuntime({
  inMemory: true, dataDir,
  env: {
    ...env, INIT_CLIENT_API_TOKENS: clientToken, INIT_FRONTEND_API_TOKENS: frontendToken, DYNAMODB_ENDPOINT: dynamo.service.endpoint, AWS_REGION: dynamo.service.region,
    DYNAMODB_ACCESS_KEY_ID: dynamo.service.accessKeyId, LOCAL_METRICS_WINDOW_MS: '0',
  },
}).catch(async (error: unknown) => {
  await dynamo.stop();
  throw error;
});
const server = await startHttpServer(runtime.handlers, { port: 0 });
let unleashStarting: Promise<BenchUnleash> | undefined;
const loader = fork(join(root, 'local', 'bench', 'load.ts'), [], { execArgv: ['--import', 'tsx'] });
// Unleash and its PostgreSQL are in `running` from their start, so that Ctrl-C or SIGTERM while
// Unleash is being seeded stops them too (Unleash runs in a process group of its own, PostgreSQL
// as a daemon); whatever else the run started is stopped after them. A start still under way
// fails once what it started is stopped; what it started meanwhile is stopped after it settles.
const running = new Running();
await withCleanUp(() => stopEach([
  () => running.stopAll(),
  async () => {
    await unleashStarting?.catch(() => undefined);
    await running.stopAll();
  },
  () => loader.kill(),
  () => server.close(),
  () => runtime.stop(),
  () => dynamo.stop(),
  () => rmSync(dataDir, { recursive: true, force: true }),
]), async () => {
  console.error(`local server on ${server.url} (${dynamo.describe}); seeding ${args.flags} flags`);
  const admin = adminClient(server.url, runtime.generatedAdminToken as string);
  const seeding = Date.now();
  await seedFlagsFast(admin, dynamo.direct, runtime.config.tableName, args.flags);
  console.error(`seeded in ${((Date.now() - seeding) / 1000).toFixed(1)} s; ${admin.resent()} admin calls sent again after a 503`);

  // Unleash starts and is seeded while this process measures its own CPU (another process's work does not count in it).
  unleashStarting = args.noUnleash ? undefined : startBenchUnleash(args.flags, (line) => console.error(line), running);
  unleashStarting?.catch(() => undefined);
  console.error('payload: the first poll (cold build), then one change');
  const cold = await coldPolls(runtime.handlers.client, dynamo, clientToken);
  // Without a warm container there is no change to follow, and metrics (checked against the served flags) are refused.
  const warm = cold.at(-1)?.status === 200;
  if (!warm) console.error(`no cold poll answered 200 in ${cold.length} attempts: skipping the change and the metrics`);
  const stored = warm ? await storedSnapshotStart(runtime.services, dynamo, clientToken) : undefined;
  const change = warm
    ? await changeCost(runtime.handlers.client, dynamo, clientToken, admin, runtime.config.revisionCheckIntervalMs, args.flags)
    : undefined;
  let frontend: FrontendCost | undefined;
  if (warm) {
    console.error(`Frontend API: ${usersFor(args.flags)} end users, each loading a page twice (the second with the ETag of the first)`);
    frontend = await frontendCost(
      runtime.handlers, { frontend: frontendToken, client: clientToken }, runtime.services.dynamoRequests, runtime.config.revisionCheckIntervalMs, args.flags,
    );
  }
  const metrics: MetricsMinute[] = [];
  const toggles = Math.min(500, args.flags);
  for (const [row, instances] of (warm ? args.metricsInstances : []).entries()) {
    // Each row reports its own flags when there are enough: its first minute, last-seen writes included.
    const first = (row * toggles) % Math.max(1, args.flags - toggles + 1);
    console.error(`metrics: one minute of reports from ${instances} instances × ${toggles} toggles (flags ${first} to ${first + toggles - 1})`);
    metrics.push(await metricsMinute(server.url, clientToken, runtime.metricsQueues, dynamo, instances, toggles, first));
  }
  console.error('admin lists through a local server that waits for them (6 MB answers)');
  const patient = await startHttpServer(runtime.handlers, { port: 0, functionTimeoutMs: PATIENT_TIMEOUT_MS, integrationTimeoutMs: PATIENT_TIMEOUT_MS });
  const adminLists: AdminListCost[] = await adminListCosts(patient.url, runtime.generatedAdminToken as string, dynamo, args.flags).finally(() => patient.close());

  const unleash = await unleashStarting?.catch((error: unknown) => {
    console.error(`Unleash could not be measured: ${String(error)}`);
    return undefined;
  });
  const versusUnleash: VersusUnleash[] = [];
  const results: ScenarioResult[] = [];
  const handlerCost: string[] = [];
  let etag: string | undefined;
  for (const scenario of SCENARIOS) {
    const headers = { authorization: clientToken, ...scenario.headers, ...(scenario.conditional && etag ? { 'if-none-match': etag } : {}) };
    const { result, answerEtag, unleashRun } = await runScenario(scenario, headers, unleash);
    results.push(result);
    if (unleashRun) {
      versusUnleash.push({
        name: scenario.name, bytes: result.bytes, ours: result.ours.requestsPerSecond, bare: result.bare.requestsPerSecond, oursCpu: result.oursCpu, bareCpu: result.bareCpu, unleash: unleashRun,
      });
    }
    handlerCost.push(`${scenario.name} ${(await handlerMicros(runtime.handlers.client, headers, handlerCalls(result.bytes))).toFixed(1)} µs`);
    etag = answerEtag;
  }
  console.log(`\n## SDK poll, ${args.flags.toLocaleString('en')} flags, ${load.connections} connections, ${load.duration} s after ${load.warmup} s warm-up, best of ${load.rounds} rounds, load from ${loadTool()}\n`);
  console.log(scenarioTable(results));
  console.log(`\nOur path per poll, in-process (API Gateway event to Lambda answer, no network): ${handlerCost.join(', ')}`);
  if (unleash) {
    console.log(`\n## SDK poll against Unleash ${unleash.version} (the same ${args.flags.toLocaleString('en')} flags through its admin API, its client token for development)\n`);
    console.log(unleashTable(versusUnleash, unleash.version));
  }
  const gateway = localApiGateway(runtime.handlers, {});
  const perRequest: string[] = [];
  for (const scenario of SCENARIOS.filter((s) => s.headers['accept-encoding'])) {
    const headers = { authorization: clientToken, ...scenario.headers, ...(scenario.conditional && etag ? { 'if-none-match': etag } : {}) };
    const cost = await localGatewayCost(gateway, runtime.handlers.client, '/api/client/features', headers);
    perRequest.push(`${scenario.name}: ${cost.serverMicros.toFixed(1)} µs (the handler ${cost.handlerMicros.toFixed(1)}, the local API Gateway ${(cost.serverMicros - cost.handlerMicros).toFixed(1)})`);
  }
  console.log(`\nThe local server's CPU per request without sockets (local/bench/local-gateway.ts, best of 5 × 5,000): ${perRequest.join('; ')}`);
  console.log('\n## What limited each run (CPU over the measured run; a single-threaded process at ≥ 90% of a core is the limit)\n');
  console.log(limitTable(results, new Map(versusUnleash.map((row) => [row.name, { load: row.unleash.load, cpu: row.unleash.cpu }]))));
  console.log('\n## One change\n');
  console.log(costLines(args.flags, cold, change, stored));
  if (frontend) {
    console.log(`\n## Frontend API, ${args.flags.toLocaleString('en')} flags, in-process (API Gateway event to Lambda answer)\n`);
    console.log(frontendLines(frontend));
    console.log(ofrepLines(await ofrepCost(runtime.handlers.frontend, { frontend: frontendToken, client: clientToken }, runtime.services.dynamoRequests, args.flags)));
  }
  if (metrics.length > 0) {
    console.log('\n## SDK metrics, one minute of reports (ADR 15)\n');
    console.log(metricsTable(metrics));
  }
  console.log(`\n## Admin lists, ${args.flags.toLocaleString('en')} flags in ${Math.ceil(args.flags / PROJECT_FLAGS)} project(s), through the local server (Lambda's 6 MB; waited for, then compared with the function's 10 s)\n`);
  console.log(adminListTable(adminLists));
  if (!args.noBundles) {
    console.error('bundling each function and timing its module init');
    console.log('\n## Functions\n');
    console.log(bundleTable(await bundleReports(root)));
    console.error('following one warm SDK poll and one strategy write through the code');
    console.log('\n## Walks: the files one warm request runs (V8 coverage), on a container of its function alone\n');
    console.log(walkLines(await measureWalks()));
  }
  if (!args.noUnleash && args.payloadFlags.length > 0) console.log(await payloadSection(args.payloadFlags));
  console.log(`\n${machine()}; ${dynamo.describe}`);
});

async function runScenario(scenario: Scenario, headers: Record<string, string>, unleash: BenchUnleash | undefined) {
  const url = `${server.url}/api/client/features`;
  const answer = await capture(url, headers);
  console.error(`${scenario.name}: ${answer.status}, ${answer.body.length} bytes; ${load.rounds} rounds of our server, then the bare reference`);
  const bare = await startBareServer(answer);
  try {
    let ours: Awaited<ReturnType<typeof measure>> | undefined;
    let reference: Awaited<ReturnType<typeof measure>> | undefined;
    let theirs: Awaited<ReturnType<typeof measure>> | undefined;
    const unleashUrl = unleash && `${unleash.url}/api/client/features`;
    const theirHeaders = unleash && (await unleashHeaders(unleash, headers, scenario.conditional, capture));
    const theirAnswer = unleashUrl && theirHeaders ? await capture(unleashUrl, theirHeaders) : undefined;
    for (let round = 0; round < load.rounds; round += 1) {
      ours = best(ours, await measure(url, headers, runtime.services.dynamoRequests));
      reference = best(reference, await measure(bare.url, headers));
      if (unleashUrl && theirHeaders) theirs = best(theirs, await measure(unleashUrl, theirHeaders, undefined, unleash.processes ?? 'unknown'));
    }
    const unleashRun: UnleashRun | undefined = theirs && theirAnswer && {
      name: scenario.name, status: theirAnswer.status, bytes: theirAnswer.body.length,
      requestsPerSecond: theirs.result.requestsPerSecond, p50: theirs.result.p50, p99: theirs.result.p99, load: theirs.result, cpu: theirs.cpu,
    };
    const result: ScenarioResult = {
      name: scenario.name, status: answer.status, bytes: answer.body.length, ours: ours!.result,
      dynamoPerPoll: ours!.dynamoPerPoll, bare: reference!.result, target: scenario.target, oursCpu: ours!.cpu, bareCpu: reference!.cpu,
    };
    return { result, answerEtag: answer.headers.etag, unleashRun };
  } finally {
    await bare.close();
  }
}

/** The payload comparison's section: each flag count on a server and an Unleash of its own, after everything else. */
async function payloadSection(counts: number[]): Promise<string> {
  const started = Date.now();
  console.error(`payload bytes against Unleash ${UNLEASH_VERSION} at ${counts.join(', ')} flags`);
  const rows = await comparePayloads(counts, (line) => console.error(line));
  return [
    `\n## Payload bytes against Unleash ${UNLEASH_VERSION} (the SDK's poll: spec 5.2.0, gzip; the same flags on both, checked flag by flag)\n`,
    payloadTable(rows, UNLEASH_VERSION),
    `\nSeeded, checked and measured in ${((Date.now() - started) / 1000).toFixed(0)} s (ours: fast-seed.ts; Unleash: 60 flags through its import API, the copies in its database).`,
  ].join('\n');
}

function best<T extends { result: LoadResult }>(kept: T | undefined, next: T): T {
  return kept && kept.result.requestsPerSecond >= next.result.requestsPerSecond ? kept : next;
}

/**
 * Warm-up, then the measured run; DynamoDB requests and the server's CPU are counted over the
 * measured run only. The server's CPU is this process's (ours and the bare reference run here,
 * the load generator in its child), or, for a server in other processes (Unleash and its
 * PostgreSQL), theirs from /proc: NaN when they could not be found.
 */
async function measure(url: string, headers: Record<string, string>, counter?: RequestCounter, elsewhere?: MeteredProcesses | 'unknown') {
  const job = { url, headers, connections: load.connections };
  await send(loader, { ...job, warmup: 0, duration: load.warmup });
  const before = counter?.snapshot();
  const meter = typeof elsewhere === 'object' ? new ProcessCpuMeter(elsewhere) : undefined;
  meter?.start();
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineTicks();
  const result = await send(loader, { ...job, warmup: 0, duration: load.duration });
  const used = process.cpuUsage(cpuBefore);
  const elsewhereMs = meter?.stop();
  const machineBusy = busyShare(machineBefore, machineTicks());
  const requests = before && counter ? countsSince(before, counter.snapshot()).total : 0;
  const cpu: RunCpu = {
    serverCpuMs: elsewhere === undefined ? (used.user + used.system) / 1000 : elsewhereMs ?? Number.NaN, loaderCpuMs: result.loaderCpuMs, wallMs: result.wallMs,
    requests: result.total, cores: cpus().length, machineBusy,
  };
  return { result, cpu, dynamoPerPoll: result.total > 0 ? requests / result.total : 0 };
}

function send(child: ChildProcess, job: LoadJob): Promise<LoadResult> {
  return new Promise((resolvePromise, reject) => {
    child.once('message', (message: { ok: boolean; result?: LoadResult; error?: string }) =>
      message.ok ? resolvePromise(message.result as LoadResult) : reject(new Error(message.error)),
    );
    child.send(job);
  });
}
