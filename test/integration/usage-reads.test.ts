import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../lib/config.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { keys, TTL_ATTRIBUTE } from '../../lib/store/table-design.js';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, servicesOn, unique } from '../support/services.js';

/**
 * The flag page's usage box reads one feature's hourly counters (ADR 15). They are keyed feature
 * first within each day's partition, so the hours of a day are one Query range; counters stored
 * under the earlier hour-first keys are read only for the hours the table's key-format record
 * says may hold them.
 */
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Today (UTC) at hh:59:59: the services' clock, so the hours a read names never move mid-test. */
const todayAt = (hh: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + (hh + 1) * HOUR_MS - 1_000);
const hourOf = (clock: Date, hoursAgo: number) => new Date(clock.getTime() - hoursAgo * HOUR_MS).toISOString().slice(0, 13);

/** Services with a clock of their own on a fresh table of their own, seeded like a fresh install. */
async function instanceAt(clock: Date) {
  const { endpoint } = inject('dynamodb');
  const config = loadConfig({ TABLE_NAME: unique('usage'), DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
  await prepareLocalTable({ region: 'local', endpoint }, config.tableName);
  const services = servicesOn(config, { now: () => clock });
  await services.firstStart.ensure();
  const token = await adminToken(services);
  const call = apiClient(services);
  const steps = featureSteps(call, token);
  const get = async (path: string) => {
    const before = services.dynamoRequests.snapshot();
    const res = await call({ method: 'GET', path, token });
    return { res, requests: countsSince(before, services.dynamoRequests.snapshot()).byOperation };
  };
  return { services, config, steps, get };
}

/** A counter as the store stage wrote it before the feature came first in the key. */
function hourFirstItem(hour: string, feature: string, environment: string, yes: number) {
  return {
    pk: `METRICS#${hour.slice(0, 10)}`, sk: `${hour.slice(11, 13)}#${feature}#${environment}`,
    feature, environment, hour, yes, no: 0, apps: new Set(['old-app']),
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(`${hour}:00:00Z`) / 1000) + 49 * 3600,
  };
}

describe("a feature's usage reads", () => {
  it('reads one Query per day the hours fall in: 3 for the 48 hours at midday, 2 at the last hour of a day', async () => {
    for (const [clockHour, summaryDays, lastDayDays] of [[12, 3, 2], [23, 2, 1]] as const) {
      const clock = todayAt(clockHour);
      const { services, steps, get } = await instanceAt(clock);
      const feature = await steps.createFeature();
      await services.metrics.addHourlyCounts([0, 1, 30, 47, 48].map((back) => ({
        hour: hourOf(clock, back), feature, environment: 'production', yes: back + 1, no: 0, apps: ['web'],
      })));
      const summaryPath = `/api/admin/client-metrics/features/${feature}`;
      const rawPath = `/api/admin/client-metrics/features/${feature}/raw?hoursBack=24`;
      await get(summaryPath);

      const summary = await get(summaryPath);
      const raw = await get(rawPath);

      expect(summary.requests).toEqual({ GetItem: 1, Query: summaryDays });
      expect(raw.requests).toEqual({ GetItem: 1, Query: lastDayDays });
      expect(summary.res.body.lastHourUsage).toEqual([{ environment: 'production', timestamp: `${hourOf(clock, 0)}:00:00.000Z`, yes: 1, no: 0 }]);
      expect(raw.res.body.data.map((d: { yes: number }) => d.yes)).toEqual([2, 1]);
    }
  });

  it('adds counters still under the hour-first keys, read only for the hours the key-format record allows', async () => {
    const clock = todayAt(12);
    const { services, config, steps, get } = await instanceAt(clock);
    const feature = await steps.createFeature();
    const db = services.composition.store.db;
    // A table the change reached two hours ago: counters of the hours up to then may be hour-first.
    await db.send(new PutCommand({ TableName: config.tableName, Item: { ...keys.hourlyMetricsKeyFormat(), hourFirstKeysUntil: hourOf(clock, 2) } }));
    for (const item of [hourFirstItem(hourOf(clock, 2), feature, 'production', 5), hourFirstItem(hourOf(clock, 20), feature, 'development', 9)]) {
      await db.send(new PutCommand({ TableName: config.tableName, Item: item }));
    }
    await services.metrics.addHourlyCounts([
      { hour: hourOf(clock, 2), feature, environment: 'production', yes: 1, no: 1, apps: ['new-app'], variants: { blue: 1 } },
      { hour: hourOf(clock, 0), feature, environment: 'production', yes: 3, no: 0 },
    ]);
    // Reads from a container of their own, which has not seen the record yet.
    const reader = servicesOn(config, { now: () => clock });
    const token = await adminToken(reader);
    const call = apiClient(reader);
    // A first call of the function group reads what any of its calls needs once (the caller's access).
    await call({ method: 'GET', path: `/api/admin/projects/default/features/${feature}`, token });
    const before = reader.dynamoRequests.snapshot();

    const raw = await call({ method: 'GET', path: `/api/admin/client-metrics/features/${feature}/raw?hoursBack=24`, token });
    const requests = countsSince(before, reader.dynamoRequests.snapshot()).byOperation;

    expect(raw.body.data.map((d: { environment: string; yes: number; no: number; appName: string }) => [d.environment, d.yes, d.no, d.appName])).toEqual([
      ['development', 9, 0, 'old-app'], ['production', 6, 1, 'new-app, old-app'], ['production', 3, 0, 'unknown'],
    ]);
    // A Query for each of the 2 days, and for each of the 22 hours up to the record's; none past it.
    expect(requests.Query).toBe(2 + 22);
    expect((await get(`/api/admin/client-metrics/features/${feature}/raw?hoursBack=24`)).res.body.data).toHaveLength(3);
  });

  it('records on a table from before the change, at its first counter write, that hour-first counters may exist until the next hour', async () => {
    const clock = todayAt(12);
    const { services, config, steps, get } = await instanceAt(clock);
    const feature = await steps.createFeature();
    const db = services.composition.store.db;
    await db.send(new DeleteCommand({ TableName: config.tableName, Key: keys.hourlyMetricsKeyFormat() }));
    const path = `/api/admin/client-metrics/features/${feature}/raw?hoursBack=24`;
    await get(`/api/admin/projects/default/features/${feature}`);

    const unknown = await get(path);
    const writer = servicesOn(config);
    const firstWrite = await writer.metrics.addHourlyCounts([{ hour: hourOf(clock, 0), feature, environment: 'production', yes: 1, no: 0 }]);
    const record = await db.send(new GetCommand({ TableName: config.tableName, Key: keys.hourlyMetricsKeyFormat(), ConsistentRead: true }));
    const writesBefore = writer.dynamoRequests.snapshot();
    await writer.metrics.addHourlyCounts([{ hour: hourOf(clock, 0), feature, environment: 'production', yes: 1, no: 0 }]);
    const laterWrite = countsSince(writesBefore, writer.dynamoRequests.snapshot()).byOperation;

    // Without a record every hour may hold hour-first counters: 24 of them, and the 2 days.
    expect(unknown.requests.Query).toBe(24 + 2);
    expect(firstWrite.left).toEqual([]);
    const writtenAt = Date.now();
    expect([hourOf(new Date(writtenAt), -1), hourOf(new Date(writtenAt), 0)]).toContain(record.Item?.hourFirstKeysUntil);
    // Once the record is known, a batch writes its counters and nothing else.
    expect(laterWrite).toEqual({ UpdateItem: 1 });
  });

  it('costs a fresh table one read of the record per process and no write beyond the counters', async () => {
    const clock = todayAt(12);
    const { config } = await instanceAt(clock);
    const writer = servicesOn(config);
    const before = writer.dynamoRequests.snapshot();

    await writer.metrics.addHourlyCounts([
      { hour: hourOf(clock, 0), feature: unique('f'), environment: 'production', yes: 1, no: 0 },
      { hour: hourOf(clock, 0), feature: unique('f'), environment: 'development', yes: 1, no: 0 },
    ]);

    expect(countsSince(before, writer.dynamoRequests.snapshot()).byOperation).toEqual({ GetItem: 1, UpdateItem: 2 });
  });
});
