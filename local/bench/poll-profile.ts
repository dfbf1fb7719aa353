/**
 * The SDK poll's gzip and 304 answers alone, for working on the local server's path per request
 * (`npm run bench` runs every scenario and much else): the bench's setup (its DynamoDB, runtime
 * and flags, seeded the same way), then for each of the two scenarios wrk against our server and
 * against the bare server replaying the same bytes, alternately for R rounds: the server CPU per
 * request of each (this process's, best round), the young-generation collections per request
 * (where a server keeps garbage alive, its scavenges cost more than its own code), and the local
 * listener without sockets. `--profile DIR` writes a V8 CPU profile and an allocation profile
 * (sampled, collected objects included) of the first round of each server.
 *
 *   node --no-allocation-site-pretenuring --import tsx local/bench/poll-profile.ts [--flags 1000] [--duration 5] [--rounds 3] [--connections 50] [--profile DIR]
 *
 * The flag, as `npm start` sets it (scripts/start.ts says why): this process serves. Without
 * it, the polls measure what they did before the fourth pass (docs/performance.md).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { localApiGateway, startHttpServer, type LocalServer } from '../http-server.js';
import { AWS_LIKE_BY_DEFAULT } from '../aws-like-dynamodb/engine.js';
import { startLocalRuntime } from '../runtime.js';
import { startBenchDynamo } from './dynamo.js';
import { seedFlagsFast } from './fast-seed.js';
import { adminClient } from './seed.js';
import { capture, startBareServer } from './reference.js';
import { runWrk } from './wrk.js';
import { localGatewayCost } from './local-gateway.js';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { values } = parseArgs({
  options: {
    flags: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    profile: { type: 'string' },
  },
});
const flags = Number(values.flags);
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
if (!process.execArgv.includes('--no-allocation-site-pretenuring')) {
  console.error('node runs without --no-allocation-site-pretenuring: the polls are not measured as npm start serves them');
}

interface RunCost {
  /** This process's CPU per answered request, µs. */
  cpuMicros: number;
  /** Young-generation collections' pause per answered request, µs. */
  scavengeMicros: number;
  scavenges: number;
  requestsPerSecond: number;
}

const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
const dataDir = mkdtempSync(join(tmpdir(), 'toggles-poll-profile-'));
const { DYNAMODB_ENDPOINT: _external, ...env } = process.env;
const dynamo = await startBenchDynamo(env, AWS_LIKE_BY_DEFAULT.bench);
const session = new Session();
try {
  const runtime = await startLocalRuntime({
    inMemory: true, dataDir,
    env: {
      ...env, INIT_CLIENT_API_TOKENS: clientToken, DYNAMODB_ENDPOINT: dynamo.service.endpoint, AWS_REGION: dynamo.service.region,
      DYNAMODB_ACCESS_KEY_ID: dynamo.service.accessKeyId, LOCAL_METRICS_WINDOW_MS: '0',
    },
  });
  // Stopped whatever fails after it started, the server's start included.
  let server: LocalServer | undefined;
  try {
    server = await startHttpServer(runtime.handlers, { port: 0 });
    if (values.profile) session.connect();
    await seedFlagsFast(adminClient(server.url, runtime.generatedAdminToken as string), dynamo.direct, runtime.config.tableName, flags);
    const url = `${server.url}/api/client/features`;
    const gzip = { authorization: clientToken, 'unleash-client-spec': '5.2.0', 'accept-encoding': 'gzip' };
    const first = await capture(url, gzip);
    const scenarios = [
      { name: 'gzip', headers: gzip },
      { name: '304', headers: { ...gzip, 'if-none-match': first.headers.etag ?? '' } },
    ];
    const lines: string[] = [];
    for (const scenario of scenarios) {
      const answer = await capture(url, scenario.headers);
      const bare = await startBareServer(answer);
      let ours: RunCost | undefined;
      let reference: RunCost | undefined;
      try {
        for (let round = 0; round < rounds; round += 1) {
          const profileOf = (server: string) => (values.profile && round === 0 ? join(values.profile, `${scenario.name}-${server}`) : undefined);
          ours = cheaper(ours, await measure(url, scenario.headers, profileOf('ours')));
          reference = cheaper(reference, await measure(`${bare.url}/api/client/features`, scenario.headers, profileOf('bare')));
        }
      } finally {
        await bare.close();
      }
      const memory = await localGatewayCost(localApiGateway(runtime.handlers, {}), runtime.handlers.client, '/api/client/features', scenario.headers, 3_000);
      lines.push(
        `${scenario.name} (${answer.status}, ${answer.body.length} bytes): ours ${describe(ours)}; bare ${describe(reference)}; ` +
        `ours/bare ${((reference?.cpuMicros ?? Number.NaN) / (ours?.cpuMicros ?? Number.NaN)).toFixed(2)}; ` +
        `without sockets ${memory.serverMicros.toFixed(1)} µs (handler ${memory.handlerMicros.toFixed(1)}, local API Gateway ${(memory.serverMicros - memory.handlerMicros).toFixed(1)})`,
      );
    }
    console.log(lines.join('\n'));
    console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  } finally {
    if (values.profile) session.disconnect();
    await server?.close().catch((error: unknown) => console.error(`the server did not close: ${String(error)}`));
    await runtime.stop();
  }
} finally {
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

function cheaper(kept: RunCost | undefined, next: RunCost): RunCost {
  return kept && kept.cpuMicros <= next.cpuMicros ? kept : next;
}

function describe(cost: RunCost | undefined): string {
  if (!cost) return 'not measured';
  return `${cost.cpuMicros.toFixed(1)} µs/req (scavenges ${cost.scavengeMicros.toFixed(1)} µs/req, ${cost.scavenges} of them; ${cost.requestsPerSecond.toFixed(0)} req/s)`;
}

/** Warm-up, then a measured wrk run; `profile`: where to write the run's CPU and allocation profiles (without extension). */
async function measure(target: string, headers: Record<string, string>, profile?: string): Promise<RunCost> {
  const job = { url: target, headers, connections, warmup: 0 };
  await runWrk({ ...job, duration: 2 });
  if (profile) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  let scavenges = 0;
  let scavengeMs = 0;
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (isScavenge(entry)) {
        scavenges += 1;
        scavengeMs += entry.duration;
      }
    }
  });
  collections.observe({ entryTypes: ['gc'] });
  const before = process.cpuUsage();
  const result = await runWrk({ ...job, duration });
  const used = process.cpuUsage(before);
  collections.disconnect();
  if (profile) {
    const { profile: cpu } = await session.post('Profiler.stop');
    writeFileSync(`${profile}.cpuprofile`, JSON.stringify(cpu));
    const { profile: heap } = await session.post('HeapProfiler.stopSampling');
    writeFileSync(`${profile}.heapprofile`, JSON.stringify(heap));
  }
  return {
    cpuMicros: (used.user + used.system) / result.total,
    scavengeMicros: (scavengeMs * 1000) / result.total,
    scavenges,
    requestsPerSecond: result.requestsPerSecond,
  };
}

/** A young-generation collection (perf_hooks' NODE_PERFORMANCE_GC_MINOR). */
function isScavenge(entry: PerformanceEntry): boolean {
  return (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === 1;
}
