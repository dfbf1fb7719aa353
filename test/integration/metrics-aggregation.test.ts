import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { directMetricsQueue, MetricsWriter } from '../../lib/client/metrics-stages.js';
import { counterExpiry } from '../../lib/client/metrics-aggregation.js';
import { metricsStages } from '../../lib/composition/metrics-services.js';
import type { Services } from '../../local/app-services.js';
import { loadConfig } from '../../lib/config.js';
import type { Feature } from '../../lib/features/model.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { LocalMetricsQueue } from '../../local/metrics-queue.js';
import { localMetricsQueues } from '../../local/metrics-queues.js';
import { apiClient } from '../support/api.js';
import { rollout, sdkToken } from '../support/client.js';
import { unique, servicesOn } from '../support/services.js';
import { seedFeatures as storeFeatures } from '../support/seed-features.js';

/**
 * Issue 14, deliverable 4 (ADR 15): SDK metrics go through the real route, the local queues with
 * SQS's rules and the two stages; DynamoDB write units are counted by an AWS-like engine of this
 * file's own, so no other test's writes are in them.
 */

const TOGGLES = 500;
/**
 * The services' clock, stopped at the last second of a UTC day: the reports' buckets, the hour
 * the counters are written to and the day they are read back by all come from it, so a run
 * that crosses midnight reads the day it wrote. (Expiry is still judged by the real time, which
 * is later, so an expired counter stays expired.)
 */
const DAY_MS = 24 * 3600 * 1000;
const NOW = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - 1000);
const now = () => NOW;
let engine: AwsLikeEngine;
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let reports: LocalMetricsQueue;
let sums: LocalMetricsQueue;
/** Fails DynamoDB requests while it answers true (the engine's injected InternalServerError). */
let faultWhen: (operation: string, body: Record<string, any>) => boolean = () => false;

beforeAll(async () => {
  // Write units are counted, not throttled: the in-request design below writes 5,500 units in a few
  // seconds, past one partition's 1,000 a second on a fast machine (its 503s are why ADR 15 exists),
  // so with the ceiling on, what it wrote would depend on this machine's speed. Throttling has its
  // own tests (paced-reads, parallel-creates).
  engine = await startAwsLikeDynamoDb({
    target: inject('dynamodbLocal').endpoint, faultWhen: (op, body) => faultWhen(op, body), limits: { read: 3_000, write: 1_000_000 },
  });
  const tableName = unique('metrics');
  await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, tableName);
  reports = new LocalMetricsQueue('reports');
  sums = new LocalMetricsQueue('sums');
  services = servicesOn(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, AWS_REGION: 'local' }), { metricsQueue: reports, now });
  const stages = metricsStages(services.metrics, sums);
  reports.consume(stages.sum);
  sums.consume((bodies) => stages.store(bodies));
  await services.firstStart.ensure();
  call = apiClient(services);
  token = await sdkToken(services);
}, 120_000);

afterAll(async () => {
  await engine?.stop();
});

/** Features straight through the store port, many per transaction. */
async function seedFeatures(count: number): Promise<string[]> {
  const prefix = unique('usage');
  const features = Array.from({ length: count }, (_, index): Feature => ({
    name: `${prefix}-${index}`, project: 'default', type: 'release', description: null,
    impressionData: false, stale: false, archived: false, archivedAt: null, createdAt: NOW.toISOString(),
    environments: { development: { enabled: true, strategies: [rollout()], variants: [] } },
    tags: [], dependencies: [], children: [], version: 1,
  }));
  await storeFeatures(services.featureStore, features);
  return features.map((feature) => feature.name);
}

/** One instance's report of every feature: yes 2, no 1, variant `blue` 2. */
const report = (instance: number, features: string[]) => ({
  appName: `app-${instance % 3}`, instanceId: `instance-${instance}`,
  bucket: {
    start: new Date(NOW.getTime() - 1000).toISOString(), stop: NOW.toISOString(),
    toggles: Object.fromEntries(features.map((name) => [name, { yes: 2, no: 1, variants: { blue: 2 } }])),
  },
});

/** `instances` reports through the route, 25 at a time, all answered 202. */
async function reportFrom(instances: number, features: string[]): Promise<void> {
  for (let first = 0; first < instances; first += 25) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(25, instances - first) }, (_, i) =>
        call({ method: 'POST', path: '/api/client/metrics', token, body: report(first + i, features) })),
    );
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 202));
  }
}

/** DynamoDB write units `work` consumes, as the engine meters them. */
async function writeUnitsOf(work: () => Promise<unknown>): Promise<number> {
  const before = engine.stats().writeUnits;
  await work();
  return engine.stats().writeUnits - before;
}

/** Both windows close: the sum stage runs on the reports, the store stage on their sums. */
async function closeWindows(): Promise<void> {
  await reports.drain();
  await sums.drain();
}

const counters = async (features: string[]) => {
  const wanted = new Set(features);
  return (await services.metrics.hourlyCounts(NOW.toISOString().slice(0, 10))).filter((count) => wanted.has(count.feature));
};

describe('SDK metrics summed before they are written', () => {
  it('writes the same units a minute for 10, 100 and 1,000 instances × 500 toggles: one counter and one last-seen per feature', async () => {
    const measured: Record<number, { writeUnits: number; reportBatches: number; sumMessages: number }> = {};
    for (const instances of [10, 100, 1000]) {
      const features = await seedFeatures(TOGGLES);
      const [batchesBefore, sumsBefore] = [reports.stats.batches, sums.stats.sent];
      await reportFrom(instances, features);

      const writeUnits = await writeUnitsOf(closeWindows);

      measured[instances] = { writeUnits, reportBatches: reports.stats.batches - batchesBefore, sumMessages: sums.stats.sent - sumsBefore };
      const stored = await counters(features);
      expect(stored).toHaveLength(TOGGLES);
      expect(stored.every((count) => count.yes === 2 * instances && count.no === instances && count.variants?.blue === 2 * instances)).toBe(true);
      expect(new Set(stored.flatMap((count) => count.apps ?? []))).toEqual(new Set(instances >= 3 ? ['app-0', 'app-1', 'app-2'] : ['app-0']));
      expect(Object.keys(await services.lastSeen.forFeature(features[0] as string))).toEqual(['development']);
    }
    console.log(`metrics write units per minute of reports: ${JSON.stringify(measured)}`);

    // A counter and a last-seen item per feature (each under 1 KB), whatever the number of instances.
    expect(measured[10]?.writeUnits).toBe(2 * TOGGLES);
    expect(measured[1000]?.writeUnits).toBeLessThanOrEqual(2 * (measured[10]?.writeUnits ?? 0));
    expect(measured[1000]?.writeUnits).toBe(measured[10]?.writeUnits);
    // The reason for two stages: 1,000 reports are more than one 6 MB batch.
    expect(measured[1000]?.reportBatches).toBeGreaterThan(1);
  }, 600_000);

  it('wrote a counter and a last-seen per toggle and report when reports were stored in the request (the design before ADR 15)', async () => {
    const features = await seedFeatures(TOGGLES);
    const inRequest = servicesOn(services.config, { metricsQueue: directMetricsQueue(new MetricsWriter(services.metrics)), now });
    const direct = apiClient(inRequest);

    const writeUnits = await writeUnitsOf(async () => {
      for (let instance = 0; instance < 10; instance += 1) {
        expect((await direct({ method: 'POST', path: '/api/client/metrics', token, body: report(instance, features) })).status).toBe(202);
      }
    });

    // 10 reports: 10 × 500 counter updates, and last-seen once (this writer remembers the interval).
    expect(writeUnits).toBe(10 * TOGGLES + TOGGLES);
  }, 300_000);

  it('gives each counter a time to live of the hour’s end plus 48 hours, and reads no expired counter', async () => {
    const [feature] = await seedFeatures(1) as [string];
    await reportFrom(1, [feature]);
    await closeWindows();
    const [count] = await counters([feature]);
    const expiredHour = new Date(NOW.getTime() - 50 * 3600 * 1000).toISOString().slice(0, 13);
    await services.metrics.addHourlyCounts([{ hour: expiredHour, feature, environment: 'development', yes: 1, no: 0 }]);

    const db = createDocumentClient({ region: 'local', endpoint: engine.endpoint, accessKeyId: undefined });
    const stored = await db.send(new GetCommand({ TableName: services.config.tableName, Key: keys.hourlyMetrics(count!.hour, feature, 'development') }));

    expect(stored.Item?.expiresAt).toBe(counterExpiry(count!.hour));
    expect(stored.Item?.expiresAt).toBe(Date.parse(`${count!.hour}:00:00Z`) / 1000 + 49 * 3600);
    const expired = await services.metrics.hourlyCounts(expiredHour.slice(0, 10));
    expect(expired.filter((c) => c.feature === feature)).toEqual([]);
  }, 120_000);
});

describe('nothing reported is lost', () => {
  it('sends back what the store stage could not write, and adds it once: no count lost, none doubled', async () => {
    const features = await seedFeatures(50);
    await reportFrom(4, features);
    await reports.drain();
    // DynamoDB fails 40 counter updates (the SDK's two attempts each): some keys are written, some not.
    let failures = 40;
    faultWhen = (op, body) => op === 'UpdateItem' && String(body.Key?.pk?.S ?? '').startsWith('METRICS#') && failures-- > 0;
    const sent = sums.stats.sent;

    try {
      await sums.drain();
    } finally {
      faultWhen = () => false;
    }

    expect(sums.stats.sent).toBeGreaterThan(sent);
    const stored = await counters(features);
    expect(stored).toHaveLength(50);
    expect(stored.every((count) => count.yes === 8 && count.no === 4)).toBe(true);
    expect(sums.deadLetters).toEqual([]);
  }, 120_000);

  it('delivers a batch again when its function dies before finishing (a recycled instance), then counts it once', async () => {
    const features = await seedFeatures(20);
    const broken = new LocalMetricsQueue('reports-of-a-dying-function');
    const inFlight = servicesOn(services.config, { metricsQueue: broken, now });
    const stages = metricsStages(inFlight.metrics, sums);
    let deaths = 1;
    broken.consume(async (bodies) => {
      if (deaths-- > 0) throw new Error('the instance was recycled mid-batch');
      await stages.sum(bodies);
    });
    const post = apiClient(inFlight);
    for (let instance = 0; instance < 3; instance += 1) {
      expect((await post({ method: 'POST', path: '/api/client/metrics', token, body: report(instance, features) })).status).toBe(202);
    }

    await broken.drain();
    await sums.drain();

    expect(broken.stats.redelivered).toBe(3);
    const stored = await counters(features);
    expect(stored.every((count) => count.yes === 6 && count.no === 3)).toBe(true);
    expect(stored).toHaveLength(20);
  }, 120_000);

  it('moves a batch that keeps failing to the dead letters after 5 receives, having written nothing', async () => {
    const queue = new LocalMetricsQueue('always-failing');
    queue.consume(async () => {
      throw new Error('DynamoDB is down');
    });
    await queue.send('{"v":1,"e":[]}');

    await queue.drain();

    expect(queue.stats.delivered).toBe(5);
    expect(queue.deadLetters).toEqual(['{"v":1,"e":[]}']);
  });

  it('answers 503 when the queue refuses a report, so the SDK keeps its bucket and sends it again', async () => {
    const [feature] = await seedFeatures(1) as [string];
    const refusing = servicesOn(services.config, { metricsQueue: { send: async () => { throw new Error('queue unavailable'); } }, now });

    const answer = await apiClient(refusing)({ method: 'POST', path: '/api/client/metrics', token, body: report(0, [feature]) });

    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toBeDefined();
  });
});

describe('the local queue keeps SQS’s limits', () => {
  it('refuses a message over 256 KB and stores nothing', async () => {
    const queue = new LocalMetricsQueue('limits');

    await expect(queue.send('x'.repeat(256 * 1024 + 1))).rejects.toThrow(/shorter than 262144 bytes/);
    expect(queue.depth).toBe(0);
  });

  it('hands a consumer at most 6 MB of records per batch', async () => {
    const queue = new LocalMetricsQueue('payload');
    const sizes: number[] = [];
    queue.consume(async (bodies) => {
      sizes.push(bodies.length);
    });
    for (let i = 0; i < 30; i += 1) await queue.send('x'.repeat(250 * 1024));

    await queue.drain();

    // (250 KB + 1 KB of record) × 24 = 6,024 KB ≤ 6 MB; a 25th would pass it.
    expect(sizes).toEqual([24, 6]);
  });
});

describe('the local queues under npm start', () => {
  it('deliver a batch when the window closes on its timer, not before', async () => {
    vi.useFakeTimers();
    try {
      const { reports: queue } = localMetricsQueues({ LOCAL_METRICS_WINDOW_MS: '1000' });
      const delivered: string[][] = [];
      queue.consume(async (bodies) => {
        delivered.push(bodies);
      });
      await queue.send('a');
      await queue.send('b');

      await vi.advanceTimersByTimeAsync(999);
      expect(delivered).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);

      expect(delivered).toEqual([['a', 'b']]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('take their window from LOCAL_METRICS_WINDOW_MS, 1 s by default, and refuse anything but whole ms', () => {
    expect(() => localMetricsQueues({})).not.toThrow();
    expect(() => localMetricsQueues({ LOCAL_METRICS_WINDOW_MS: '0' })).not.toThrow();
    expect(() => localMetricsQueues({ LOCAL_METRICS_WINDOW_MS: 'soon' })).toThrow(/LOCAL_METRICS_WINDOW_MS/);
  });
});
