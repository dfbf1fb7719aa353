/**
 * Per-change and per-minute work, counted by the AWS-like engine (issue 14): the CPU and read
 * units of the SDK payload built cold and rebuilt after one change, and the DynamoDB write
 * units of one minute of SDK metrics from 10, 100 and 1,000 instances (ADR 15's two stages).
 */
import type { LambdaHandler } from '../../lib/http/router.js';
import { FUNCTION_TIMEOUT_MS } from '../../lib/time-budget.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';
import type { LocalMetricsQueues } from '../metrics-queues.js';
import type { BenchDynamo } from './dynamo.js';
import { flagName, type Admin } from './seed.js';
import { definition as clientFunction } from '../../functions/client/handler.js';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import { createComposition } from '../../lib/composition/composition.js';
import { DynamoStoredSnapshotStore } from '../../lib/client/dynamo-stored-snapshot.js';
import type { ClientFeatureService } from '../../lib/client/features-service.js';
import type { StoreOutcome } from '../../lib/client/feature-snapshots.js';
import type { AppConfig } from '../../lib/config.js';
import { connectStore } from '../../lib/store/context.js';

export interface PollCost {
  /** CPU of this process over the poll, ms: the client handler, its DynamoDB client, and the AWS-like engine proxying its reads. */
  cpuMs: number;
  wallMs: number;
  /** Read units the poll consumed; undefined without the AWS-like engine. */
  readUnits: number | undefined;
  status: number;
  /** Bytes of the body as sent (gzip). */
  bytes: number;
  /** Whether the wall time passed the function's timeout: in Lambda the poll would have been answered 503. */
  pastTimeout: boolean;
}

/** Long enough for a cold build at 50,000 flags on a busy machine: the bench measures the work, and compares its wall time with the timeout. */
const MEASURING_TIMEOUT_MS = 600_000;

/**
 * One SDK poll (spec 5.2.0, gzip) straight into the client group's handler, its CPU and read
 * units counted. The handler gets a long deadline, so that a build slower than the function's
 * timeout is measured whole rather than cut by the early 503 (which leaves the work running).
 */
export async function pollCost(handler: LambdaHandler, dynamo: BenchDynamo, token: string): Promise<PollCost> {
  const event = toApiGatewayEvent({
    method: 'GET', url: '/api/client/features', body: Buffer.alloc(0), routeKey: 'GET /api/client/features', pathParameters: {},
    sourceIp: '127.0.0.1', headers: { authorization: token, 'unleash-client-spec': '5.2.0', 'accept-encoding': 'gzip' },
  });
  const units = dynamo.units();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answer = (await handler(event, localContext('bench-client', MEASURING_TIMEOUT_MS))) as { statusCode: number; body?: string; isBase64Encoded?: boolean };
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = dynamo.units();
  return {
    cpuMs: (used.user + used.system) / 1000, wallMs, status: answer.statusCode, pastTimeout: wallMs > FUNCTION_TIMEOUT_MS,
    readUnits: units && after ? after.read - units.read : undefined,
    bytes: answer.body ? Buffer.byteLength(answer.body, answer.isBase64Encoded ? 'base64' : 'utf8') : 0,
  };
}

/**
 * The first polls of a cold container until one is answered 200 (at most `attempts`): a cold
 * build that fails (a DynamoDB request past the store's timeout) is what an SDK meets too.
 */
export async function coldPolls(handler: LambdaHandler, dynamo: BenchDynamo, token: string, attempts = 3): Promise<PollCost[]> {
  const polls: PollCost[] = [];
  while (polls.length < attempts && polls.at(-1)?.status !== 200) polls.push(await pollCost(handler, dynamo, token));
  return polls;
}

export interface StoredStart {
  /** The scheduled writer on the warm runtime: encoding and writing the stored snapshot (ADR 20). */
  writer: { outcome: StoreOutcome; cpuMs: number; wallMs: number; writeUnits: number | undefined; pages: number; bytes: number };
  /** The first polls of a new container, which starts from the stored snapshot. */
  polls: PollCost[];
}

/** ADR 20: the writer stores the warm runtime's snapshot, then a new container's first polls start from it. */
export async function storedSnapshotStart(runtime: { clientFeatures: Pick<ClientFeatureService, 'storeSnapshot'>; config: AppConfig }, dynamo: BenchDynamo, token: string): Promise<StoredStart> {
  const units = dynamo.units();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await runtime.clientFeatures.storeSnapshot();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const after = dynamo.units();
  const reader = connectStore(runtime.config);
  const head = await new DynamoStoredSnapshotStore(reader.db, runtime.config.tableName).head().finally(() => reader.db.destroy());
  const fresh = createComposition(runtime.config);
  try {
    return {
      writer: {
        outcome, cpuMs: (used.user + used.system) / 1000, wallMs, writeUnits: units && after ? after.write - units.write : undefined,
        // The snapshot's pages and the stored answers' (ADR 25) together: what the writer wrote.
        pages: (head?.pages ?? 0) + [...(head?.scopes.values() ?? [])].reduce((sum, scope) => sum + scope.count, 0),
        bytes: (head?.bytes ?? 0) + [...(head?.scopes.values() ?? [])].reduce((sum, scope) => sum + scope.bytes, 0),
      },
      polls: await coldPolls(groupHandlerOf(clientFunction, fresh), dynamo, token),
    };
  } finally {
    fresh.store.db.destroy();
  }
}

/**
 * One change (flag 7 switched off in development through the admin API), then the first poll
 * after the revision check interval: what a warm container spends to follow one change.
 */
export async function changeCost(
  handler: LambdaHandler, dynamo: BenchDynamo, token: string, admin: Admin, revisionCheckIntervalMs: number, flags: number,
): Promise<PollCost> {
  await pollCost(handler, dynamo, token);
  const name = flagName(Math.min(7, flags - 1));
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/off`);
  await new Promise((resolve) => setTimeout(resolve, revisionCheckIntervalMs + 100));
  const cost = await pollCost(handler, dynamo, token);
  await admin('POST', `/api/admin/projects/default/features/${name}/environments/development/on`);
  return cost;
}

export interface MetricsMinute {
  instances: number;
  toggles: number;
  /** Index of the first flag reported. */
  first: number;
  writeUnits: number | undefined;
  reportBatches: number;
  /** Reports answered something else than 202, by status. */
  refused: Record<number, number>;
}

/**
 * One minute of SDK metrics: each of `instances` SDKs sends one report of `toggles` flags (from
 * flag `first` on) through the route (25 at a time), then both queues are drained (ADR 15); the
 * write units are everything DynamoDB wrote meanwhile. Flags reported for the first time in the
 * last-seen interval also get their last-seen written; later minutes write only counters.
 */
export async function metricsMinute(
  baseUrl: string, token: string, queues: LocalMetricsQueues, dynamo: BenchDynamo, instances: number, toggles: number,
  first = 0,
): Promise<MetricsMinute> {
  const names = Array.from({ length: toggles }, (_, index) => flagName(first + index));
  const units = dynamo.units();
  const batches = queues.reports.stats.batches;
  const refused: Record<number, number> = {};
  for (let sent = 0; sent < instances; sent += 25) {
    await Promise.all(Array.from({ length: Math.min(25, instances - sent) }, async (_, i) => {
      const instance = sent + i;
      const res = await fetch(`${baseUrl}/api/client/metrics`, {
        method: 'POST',
        headers: { authorization: token, 'content-type': 'application/json' },
        body: JSON.stringify({
          appName: `bench-app-${instance % 5}`, instanceId: `bench-instance-${instance}`,
          bucket: {
            start: new Date(Date.now() - 60_000).toISOString(), stop: new Date().toISOString(),
            toggles: Object.fromEntries(names.map((name) => [name, { yes: 20, no: 10, variants: { blue: 10, green: 10 } }])),
          },
        }),
      });
      await res.arrayBuffer();
      if (res.status !== 202) refused[res.status] = (refused[res.status] ?? 0) + 1;
    }));
  }
  await queues.reports.drain();
  await queues.sums.drain();
  const after = dynamo.units();
  return {
    instances, toggles, first, refused, reportBatches: queues.reports.stats.batches - batches,
    writeUnits: units && after ? after.write - units.write : undefined,
  };
}
