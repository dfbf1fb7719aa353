import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { metricsLifecycle, metricsStages } from '../../lib/composition/metrics-services.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { keys } from '../../lib/store/table-design.js';
import { DynamoFlagHistory } from '../../lib/unknown-flags/dynamo-flag-history.js';
import { DynamoUnknownFlagStore } from '../../lib/unknown-flags/dynamo-store.js';
import type { UnknownFlagBounds } from '../../lib/unknown-flags/model.js';
import { UNKNOWN_RECHECK_INTERVAL_MS, UnknownFlagRecorder } from '../../lib/unknown-flags/recorder.js';
import type { Services } from '../../local/app-services.js';
import { LocalMetricsQueue } from '../../local/metrics-queue.js';
import { apiClient } from '../support/api.js';
import { sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/**
 * Unleash 7's unknown flags: names SDKs report evaluating that are no flag of the instance are
 * kept per application and environment, listed by `GET /api/admin/metrics/unknown-flags` for 24
 * hours after their last report, and drop out once a flag of that name exists. Reports go through
 * the real route, the local queues with SQS's rules and both metrics stages, as under `npm start`
 * and in the cloud (ADR 15); each pipeline has a table of its own, since the bounds hold per table.
 */
interface Pipeline {
  services: Services;
  call: ReturnType<typeof apiClient>;
  admin: string;
  sdk: string;
  steps: ReturnType<typeof featureSteps>;
  report(toggles: Record<string, { yes: number; no: number }>, options?: { appName?: string; sdk?: string }): Promise<void>;
  list(): Promise<Array<{ name: string; lastSeenAt: string; lastEventAt: string | null; reports: Array<{ appName: string; environments: Array<{ environment: string; seenAt: string }> }> }>>;
  stored(): Promise<Array<Record<string, unknown>>>;
  stop(): Promise<void>;
}

/** How far the services' clock is ahead of the real time: the tests move it forward. */
let aheadMs = 0;
const clockMs = () => Date.now() + aheadMs;

async function pipeline(bounds?: UnknownFlagBounds): Promise<Pipeline> {
  const tableName = unique('unknown-flags');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  const reports = new LocalMetricsQueue('reports');
  const sums = new LocalMetricsQueue('sums');
  const services = testServices({ TABLE_NAME: tableName }, { now: () => new Date(clockMs()), metricsQueue: reports });
  const { store } = services.composition;
  const recorder = new UnknownFlagRecorder(new DynamoUnknownFlagStore(store.db, store.tableName), new DynamoFlagHistory(store.db, store.tableName), bounds, clockMs);
  const stages = metricsStages(services.metrics, sums, services.composition.once(metricsLifecycle), recorder);
  reports.consume(stages.sum);
  sums.consume((bodies) => stages.store(bodies));
  await services.firstStart.ensure();
  const call = apiClient(services);
  const admin = await adminToken(services);
  const sdk = await sdkToken(services, { environment: 'development' });
  return {
    services, call, admin, sdk, steps: featureSteps(call, admin),
    async report(toggles, options = {}) {
      const res = await call({
        method: 'POST', path: '/api/client/metrics', token: options.sdk ?? sdk,
        body: { appName: options.appName ?? 'web-shop', instanceId: 'i-1', bucket: { start: new Date(clockMs() - 1000).toISOString(), stop: new Date(clockMs()).toISOString(), toggles } },
      });
      expect(res.status).toBe(202);
      await reports.drain();
      await sums.drain();
    },
    async list() {
      const res = await call({ method: 'GET', path: '/api/admin/metrics/unknown-flags', token: admin });
      expect(res.status).toBe(200);
      return res.body.unknownFlags;
    },
    async stored() {
      const { pk, skPrefix } = keys.unknownFlags();
      const { Items = [] } = await store.db.send(new QueryCommand({
        TableName: tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix }, ConsistentRead: true,
      }));
      return Items;
    },
    async stop() {
      await reports.stop();
      await sums.stop();
    },
  };
}

let shared: Pipeline;
const pipelines: Pipeline[] = [];
const started = async (bounds?: UnknownFlagBounds) => {
  const made = await pipeline(bounds);
  pipelines.push(made);
  return made;
};

beforeAll(async () => {
  shared = await started();
}, 120_000);

afterAll(async () => {
  for (const made of pipelines) await made.stop();
});

const names = (list: Array<{ name: string }>) => list.map((flag) => flag.name);

describe('unknown flags', () => {
  it('lists a name an SDK evaluated that is no flag, with who reported it where, and not the flag beside it', async () => {
    const known = await shared.steps.createFeature();
    const typo = unique('typo');

    await shared.report({ [known]: { yes: 3, no: 1 }, [typo]: { yes: 0, no: 5 } });

    const listed = await shared.list();
    expect(names(listed)).toContain(typo);
    expect(names(listed)).not.toContain(known);
    const entry = listed.find((flag) => flag.name === typo)!;
    expect(entry.reports).toEqual([{ appName: 'web-shop', environments: [{ environment: 'development', seenAt: entry.lastSeenAt }] }]);
    expect(entry.lastEventAt).toBeNull();
    expect(Date.parse(entry.lastSeenAt)).toBeGreaterThan(clockMs() - 60_000);
  });

  it('lists a name no flag could have, as Unleash does (its page calls them invalid flags)', async () => {
    const invalid = `${unique('bad')} name!`;

    await shared.report({ [invalid]: { yes: 1, no: 0 } });

    expect(names(await shared.list())).toContain(invalid);
  });

  it('leaves out a name evaluated zero times, as Unleash does', async () => {
    const idle = unique('idle');

    await shared.report({ [idle]: { yes: 0, no: 0 } });

    expect(names(await shared.list())).not.toContain(idle);
  });

  it('keeps each application and environment that reported a name', async () => {
    const typo = unique('typo');
    const production = await sdkToken(shared.services, { environment: 'production' });

    await shared.report({ [typo]: { yes: 1, no: 0 } }, { appName: 'checkout' });
    await shared.report({ [typo]: { yes: 1, no: 0 } }, { appName: 'web-shop' });
    await shared.report({ [typo]: { yes: 1, no: 0 } }, { appName: 'checkout', sdk: production });

    const entry = (await shared.list()).find((flag) => flag.name === typo)!;
    expect(entry.reports.map((report) => [report.appName, report.environments.map((e) => e.environment)])).toEqual([
      ['checkout', ['development', 'production']],
      ['web-shop', ['development']],
    ]);
  });

  it('drops a name from the list once a flag of that name is created', async () => {
    const later = unique('later');
    await shared.report({ [later]: { yes: 1, no: 0 } });
    expect(names(await shared.list())).toContain(later);

    await shared.steps.createFeature('default', later);

    expect(names(await shared.list())).not.toContain(later);
  });

  it('does not take an archived flag, or a flag of another project than the token’s, for an unknown one', async () => {
    const archived = await shared.steps.createFeature();
    await shared.call({ method: 'POST', path: '/api/admin/projects/default/archive', token: shared.admin, body: { features: [archived] } });
    const project = await shared.steps.createProject();
    const elsewhere = await shared.steps.createFeature(project);
    const scoped = await sdkToken(shared.services, { environment: 'development', projects: ['default'] });

    await shared.report({ [archived]: { yes: 1, no: 0 }, [elsewhere]: { yes: 1, no: 0 } }, { sdk: scoped });

    const listed = names(await shared.list());
    expect(listed).not.toContain(archived);
    expect(listed).not.toContain(elsewhere);
  });

  it('gives a name that was a flag once (deleted since) the time of its last change event', async () => {
    const deleted = await shared.steps.createFeature();
    await shared.call({ method: 'POST', path: '/api/admin/projects/default/archive', token: shared.admin, body: { features: [deleted] } });
    const removal = await shared.call({ method: 'DELETE', path: `/api/admin/archive/${deleted}`, token: shared.admin });
    expect(removal.status).toBe(200);

    await shared.report({ [deleted]: { yes: 2, no: 0 } });

    const entry = (await shared.list()).find((flag) => flag.name === deleted);
    expect(entry?.lastEventAt).toEqual(expect.any(String));
    expect(Date.parse(entry!.lastEventAt!)).toBeLessThanOrEqual(Date.parse(entry!.lastSeenAt));
  });

  it('writes a name a repeating SDK reports once per interval, and refreshes its time after it', async () => {
    const typo = unique('typo');
    await shared.report({ [typo]: { yes: 1, no: 0 } });
    const first = (await shared.list()).find((flag) => flag.name === typo)!.lastSeenAt;
    const before = shared.services.dynamoRequests.snapshot();

    await shared.report({ [typo]: { yes: 1, no: 0 } });

    // The report's own work only: the served names are cached, and the name is neither queued nor written again.
    expect(countsSince(before, shared.services.dynamoRequests.snapshot()).byOperation).toEqual({});
    aheadMs += UNKNOWN_RECHECK_INTERVAL_MS;
    await shared.report({ [typo]: { yes: 1, no: 0 } });
    const refreshed = (await shared.list()).find((flag) => flag.name === typo)!.lastSeenAt;
    expect(Date.parse(refreshed)).toBeGreaterThan(Date.parse(first));
  });

  it('lists nothing reported more than 24 hours ago', async () => {
    const old = unique('old');
    await shared.report({ [old]: { yes: 1, no: 0 } });
    expect(names(await shared.list())).toContain(old);

    aheadMs += 24 * 60 * 60 * 1000 + 60_000;

    expect(names(await shared.list())).not.toContain(old);
    const item = (await shared.stored()).find((stored) => stored.name === old);
    // DynamoDB's TTL removes it; until then no read shows it.
    expect(Number(item?.expiresAt)).toBeLessThan(clockMs() / 1000);
  });
});

describe('the bounds on what an SDK can make the table keep', () => {
  it('stores at most the cap of names, and a new one once an old one lapsed', async () => {
    const bounded = await started({ names: 3, reportsPerName: 2, retentionHours: 24 });
    const flood = Array.from({ length: 6 }, (_, i) => `flood-${i}`);

    await bounded.report(Object.fromEntries(flood.map((name) => [name, { yes: 1, no: 0 }])));
    await bounded.report({ 'flood-late': { yes: 1, no: 0 } });

    expect(names(await bounded.list())).toEqual(['flood-0', 'flood-1', 'flood-2']);
    expect(await bounded.stored()).toHaveLength(3);

    aheadMs += 24 * 60 * 60 * 1000 + 60_000;
    await bounded.report({ 'flood-next-day': { yes: 1, no: 0 } });

    expect(names(await bounded.list())).toEqual(['flood-next-day']);
  });

  it('keeps at most the cap of application and environment pairs per name', async () => {
    const bounded = await started({ names: 3, reportsPerName: 2, retentionHours: 24 });

    for (const appName of ['app-a', 'app-b', 'app-c', 'app-d']) await bounded.report({ typo: { yes: 1, no: 0 } }, { appName });

    const entry = (await bounded.list()).find((flag) => flag.name === 'typo')!;
    expect(entry.reports.map((report) => report.appName)).toEqual(['app-a', 'app-b']);
  });

  it('costs the store stage a keys read per 100 names, one Query and a write per name, and the list one Query, a keys read and an index Query per name listed', async () => {
    const bounded = await started({ names: 1000, reportsPerName: 20, retentionHours: 24 });
    const { store } = bounded.services.composition;
    const recorder = new UnknownFlagRecorder(new DynamoUnknownFlagStore(store.db, store.tableName), new DynamoFlagHistory(store.db, store.tableName), undefined, clockMs);
    const seenAt = new Date(clockMs()).toISOString();
    const batch = Array.from({ length: 150 }, (_, i) => ({ name: `costly-${i}`, appName: i % 2 === 0 ? 'web' : 'api', environment: 'development', seenAt }));
    const requests = () => store.dynamoRequests.snapshot();

    const beforeWrite = requests();
    await recorder.record(batch);
    const written = countsSince(beforeWrite, requests()).byOperation;
    const beforeRepeat = requests();
    await recorder.record(batch);
    const repeated = countsSince(beforeRepeat, requests()).byOperation;
    // The first admin call of a container also reads the token: that is not the list's.
    await bounded.call({ method: 'GET', path: '/api/admin/tag-types', token: bounded.admin });
    const beforeList = requests();
    const listed = await bounded.list();
    const read = countsSince(beforeList, requests()).byOperation;

    expect(listed).toHaveLength(150);
    expect(written).toEqual({ BatchGetItem: 2, Query: 1, UpdateItem: 150 });
    expect(repeated).toEqual({});
    // The partition (one page), the names against the flags (100 a read), each name's newest event.
    expect(read).toEqual({ BatchGetItem: 2, Query: 1 + 150 });
  });

  it('with the cap of names reached, looks up among the flags only the names already stored: new ones cost no read of the features', async () => {
    const bounds = { names: 3, reportsPerName: 2, retentionHours: 24 };
    const bounded = await started(bounds);
    const { store } = bounded.services.composition;
    const recorder = new UnknownFlagRecorder(new DynamoUnknownFlagStore(store.db, store.tableName), new DynamoFlagHistory(store.db, store.tableName), bounds, clockMs);
    const report = (name: string, appName = 'web') => ({ name, appName, environment: 'development', seenAt: new Date(clockMs()).toISOString() });
    await recorder.record(['kept-0', 'kept-1', 'kept-2'].map((name) => report(name)));
    const requests = () => store.dynamoRequests.snapshot();

    const beforeNewOnly = requests();
    await recorder.record(Array.from({ length: 150 }, (_, i) => report(`made-up-${i}`)));
    const newOnly = countsSince(beforeNewOnly, requests()).byOperation;
    const beforeMixed = requests();
    await recorder.record([...Array.from({ length: 150 }, (_, i) => report(`made-up-again-${i}`)), report('kept-1', 'api')]);
    const mixed = countsSince(beforeMixed, requests()).byOperation;

    expect(newOnly).toEqual({ Query: 1 });
    // The stored name is still looked up (it may have become a flag) and gets its new pair.
    expect(mixed).toEqual({ Query: 1, BatchGetItem: 1, UpdateItem: 1 });
    const stored = await bounded.stored();
    expect(stored.map((item) => item.name)).toEqual(['kept-0', 'kept-1', 'kept-2']);
    expect(Object.keys(stored.find((item) => item.name === 'kept-1')!.reports as object)).toHaveLength(2);
  });

  it('still refreshes the pairs a full name holds, and lets pairs that stopped reporting make room for new ones', async () => {
    const bounded = await started({ names: 3, reportsPerName: 2, retentionHours: 24 });
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-a' });
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-b' });
    const seenAtOf = async (appName: string) => (await bounded.list())
      .find((flag) => flag.name === 'crowded')?.reports.find((report) => report.appName === appName)?.environments[0]?.seenAt;
    const first = await seenAtOf('app-a');

    aheadMs += UNKNOWN_RECHECK_INTERVAL_MS;
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-a' });
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-c' });
    expect(Date.parse((await seenAtOf('app-a'))!)).toBeGreaterThan(Date.parse(first!));
    expect(await seenAtOf('app-c')).toBeUndefined();

    // app-b stops reporting; a day later app-a still does, and app-c takes app-b's place.
    aheadMs += 20 * 60 * 60 * 1000;
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-a' });
    aheadMs += 5 * 60 * 60 * 1000;
    await bounded.report({ crowded: { yes: 1, no: 0 } }, { appName: 'app-c' });

    const entry = (await bounded.list()).find((flag) => flag.name === 'crowded')!;
    expect(entry.reports.map((report) => report.appName)).toEqual(['app-a', 'app-c']);
    const item = (await bounded.stored()).find((stored) => stored.name === 'crowded')!;
    expect(Object.keys(item.reports as object)).toHaveLength(2);
  });

  it('stores what a batch delivered twice holds once', async () => {
    const bounded = await started({ names: 3, reportsPerName: 2, retentionHours: 24 });
    const { store } = bounded.services.composition;
    // One instant for both deliveries: a name's expiry follows the later of its report and the
    // recorder's clock, so a redelivery a second later would move it, which is not what this holds.
    const deliveredAt = clockMs();
    const pinnedClock = () => deliveredAt;
    const recorder = new UnknownFlagRecorder(new DynamoUnknownFlagStore(store.db, store.tableName), new DynamoFlagHistory(store.db, store.tableName), undefined, pinnedClock);
    const again = new UnknownFlagRecorder(new DynamoUnknownFlagStore(store.db, store.tableName), new DynamoFlagHistory(store.db, store.tableName), undefined, pinnedClock);
    const batch = [{ name: 'retried', appName: 'web', environment: 'development', seenAt: new Date(deliveredAt).toISOString() }];

    await recorder.record(batch);
    const once = await bounded.stored();
    await again.record(batch);

    expect(await bounded.stored()).toEqual(once);
  });
});
