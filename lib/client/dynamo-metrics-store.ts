import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { counterExpiry } from './metrics-aggregation.js';
import type { HourlyCount, MetricsStore, SeenFeature, WritesLeft } from './store.js';
import { isConditionFailed } from '../store/dynamo-errors.js';
import { batchGet } from '../store/batch-get.js';
import { queryCollection } from '../store/query.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';

/** Writes in flight per batch: enough to finish a thousand keys in well under a second. */
const WRITE_CONCURRENCY = 16;

const HOUR_MS = 60 * 60 * 1000;

/**
 * The attribute of the key-format record (`keys.hourlyMetricsKeyFormat`): the last hour
 * (`yyyy-mm-ddThh`) whose counters may be stored under the hour-first keys, or `''` for a table
 * that never had any. It is set once and never changes.
 */
const HOUR_FIRST_UNTIL = 'hourFirstKeysUntil';

/** The key-format record of a fresh table, written with the first start's data: no hour-first counter exists. */
export function freshTableKeyFormatItem(): Record<string, unknown> {
  return { ...keys.hourlyMetricsKeyFormat(), [HOUR_FIRST_UNTIL]: '' };
}

/**
 * SDK usage on DynamoDB: hourly counters (one item per hour, feature and environment, grown
 * with atomic ADD so concurrent writers add up, deleted by TTL after Unleash's 48 hours) and
 * last-seen items. Only the metrics store stage writes them, once per key and batch (ADR 15).
 * Plain UpdateItems, never in a transaction with the revision: metrics must not invalidate the
 * SDK payload.
 */
export class DynamoMetricsStore implements MetricsStore {
  /** The key-format record once read (it never changes once stored), so a container reads it once. */
  private hourFirstUntil: Promise<string | undefined> | undefined;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async addHourlyCounts(counts: HourlyCount[], startWhile: () => boolean = always): Promise<WritesLeft<HourlyCount>> {
    if (counts.length === 0) return { left: [] };
    try {
      await this.recordKeyFormat();
    } catch (failure) {
      return { left: counts, failure };
    }
    return forEachLimited(counts, startWhile, async (count) => {
      const variants = Object.entries(count.variants ?? {}).filter(([, n]) => n > 0);
      const adds = ['#yes :yes', '#no :no', ...variants.map((_, i) => `#v${i} :v${i}`), ...(count.apps?.length ? ['apps :apps'] : [])];
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.hourlyMetrics(count.hour, count.feature, count.environment),
          // A string set of reporting apps grows with ADD too (an empty set cannot be stored);
          // each variant is a number of its own, as ADD reaches only top-level attributes.
          UpdateExpression: `ADD ${adds.join(', ')} SET #feature = :feature, #environment = :environment, #hour = :hour, #ttl = :ttl`,
          ExpressionAttributeNames: {
            '#yes': 'yes', '#no': 'no', '#feature': 'feature', '#environment': 'environment', '#hour': 'hour', '#ttl': TTL_ATTRIBUTE,
            ...Object.fromEntries(variants.map(([name], i) => [`#v${i}`, `${VARIANT_PREFIX}${name}`])),
          },
          ExpressionAttributeValues: {
            ':yes': count.yes,
            ':no': count.no,
            ':feature': count.feature,
            ':environment': count.environment,
            ':hour': count.hour,
            ':ttl': counterExpiry(count.hour),
            ...Object.fromEntries(variants.map(([, n], i) => [`:v${i}`, n])),
            ...(count.apps?.length ? { ':apps': new Set(count.apps) } : {}),
          },
        }),
      );
    });
  }

  async markSeen(
    seen: SeenFeature[],
    { startWhile = always, intervalMs = 0 }: { startWhile?: () => boolean; intervalMs?: number } = {},
  ): Promise<WritesLeft<SeenFeature>> {
    return forEachLimited(seen, startWhile, async ({ feature, environment, at }) => {
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.lastSeen(feature, environment),
            UpdateExpression: 'SET #feature = :feature, #environment = :environment, lastSeenAt = :at',
            // ISO times order as text: the time moves only forwards, and only once it is an
            // interval old, whichever writer comes first.
            ConditionExpression: 'attribute_not_exists(lastSeenAt) OR lastSeenAt < :staleBefore',
            ExpressionAttributeNames: { '#feature': 'feature', '#environment': 'environment' },
            ExpressionAttributeValues: {
              ':feature': feature, ':environment': environment, ':at': at,
              ':staleBefore': new Date(Date.parse(at) - intervalMs).toISOString(),
            },
          }),
        );
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    });
  }

  async forFeature(name: string): Promise<Record<string, string>> {
    const items = await queryCollection(this.db, this.tableName, keys.lastSeenOfFeature(name));
    return Object.fromEntries(items.map((item) => [String(item.environment), String(item.lastSeenAt)]));
  }

  async forAll(): Promise<Map<string, Record<string, string>>> {
    const byFeature = new Map<string, Record<string, string>>();
    for (const item of await queryCollection(this.db, this.tableName, keys.lastSeenAll())) {
      const feature = String(item.feature);
      byFeature.set(feature, { ...byFeature.get(feature), [String(item.environment)]: String(item.lastSeenAt) });
    }
    return byFeature;
  }

  async forFeatures(names: readonly string[], environments: readonly string[]): Promise<Map<string, Record<string, string>>> {
    const itemKeys = [...new Set(names)].flatMap((feature) => [...new Set(environments)].map((environment) => keys.lastSeen(feature, environment)));
    // BatchGetItem takes 100 keys: the calls go out at once.
    const calls = [];
    for (let start = 0; start < itemKeys.length; start += 100) calls.push(batchGet(this.db, this.tableName, itemKeys.slice(start, start + 100)));
    const byFeature = new Map<string, Record<string, string>>();
    for (const item of (await Promise.all(calls)).flat()) {
      const feature = String(item.feature);
      byFeature.set(feature, { ...byFeature.get(feature), [String(item.environment)]: String(item.lastSeenAt) });
    }
    return byFeature;
  }

  async hourlyCounts(day: string): Promise<HourlyCount[]> {
    const { pk } = keys.dailyMetrics(day);
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    // The whole day partition, so no sort-key condition (an empty begins_with is not allowed).
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return liveCounts(items);
  }

  /**
   * One Query per day the hours fall in (2 or 3 for 48 hours), each the feature's range of its
   * day partition; while counters under the hour-first keys may still be live (the 48 hours after
   * the key change reached a table), also one Query per hour that may hold them, as before.
   */
  async hourlyCountsOf(feature: string, hours: readonly string[]): Promise<HourlyCount[]> {
    if (hours.length === 0) return [];
    const hourFirstUntil = await this.hourFirstKeysUntil();
    const wanted = new Set(hours);
    const days = new Map<string, { from: string; to: string }>();
    for (const hour of hours) {
      const day = hour.slice(0, 10);
      const hh = hour.slice(11, 13);
      const span = days.get(day);
      days.set(day, span ? { from: hh < span.from ? hh : span.from, to: hh > span.to ? hh : span.to } : { from: hh, to: hh });
    }
    const hourFirstHours = hours.filter((hour) => hourFirstUntil === undefined || hour <= hourFirstUntil);
    const pages = await Promise.all([
      ...[...days].map(([day, { from, to }]) => this.queryRange(keys.featureHoursOfDay(day, feature, from, to))),
      ...hourFirstHours.map((hour) => queryCollection(this.db, this.tableName, keys.hourFirstFeatureMetrics(hour, feature))),
    ]);
    return liveCounts(pages.flat().filter((item) => wanted.has(String(item.hour))));
  }

  /**
   * The last hour hour-first counters may exist for, `''` for none, or undefined while the table
   * has no record yet (a table from before the change whose store stage has not written since:
   * every hour may hold them). Cached once read, as it never changes.
   */
  private hourFirstKeysUntil(): Promise<string | undefined> {
    const reading = (this.hourFirstUntil ??= this.readKeyFormat());
    // An absent record is asked again next time: the store stage may have written it since.
    void reading.then((until) => {
      if (until === undefined && this.hourFirstUntil === reading) this.hourFirstUntil = undefined;
    }, () => {
      if (this.hourFirstUntil === reading) this.hourFirstUntil = undefined;
    });
    return reading;
  }

  private async readKeyFormat(): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.hourlyMetricsKeyFormat() }));
    const until = Item?.[HOUR_FIRST_UNTIL];
    return typeof until === 'string' ? until : undefined;
  }

  /**
   * Before this process first writes a counter under the feature-first keys, it makes sure the
   * table records up to which hour hour-first counters may exist: on a table from before the
   * change, the hour after now (writers still running the old code finish within it). A read in
   * the common case, a write once per table; `if_not_exists` keeps the first record.
   */
  private async recordKeyFormat(): Promise<void> {
    if ((await this.hourFirstKeysUntil()) !== undefined) return;
    const until = new Date(this.now() + HOUR_MS).toISOString().slice(0, 13);
    const { Attributes } = await this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.hourlyMetricsKeyFormat(),
      UpdateExpression: 'SET #until = if_not_exists(#until, :until)',
      ExpressionAttributeNames: { '#until': HOUR_FIRST_UNTIL },
      ExpressionAttributeValues: { ':until': until },
      ReturnValues: 'ALL_NEW',
    }));
    this.hourFirstUntil = Promise.resolve(String(Attributes?.[HOUR_FIRST_UNTIL] ?? until));
  }

  /** Every item of one sort-key range of a partition, strongly consistent like the other counter reads. */
  private async queryRange(range: { pk: string; from: string; to: string }): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': range.pk, ':from': range.from, ':to': range.to },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }));
      items.push(...((page.Items ?? []) as Record<string, unknown>[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

/**
 * DynamoDB deletes expired items some time after they expire: until then they are skipped here.
 * The same hour, feature and environment may be stored under both key formats (counters added in
 * the hour the format changed): they are one counter, summed.
 */
function liveCounts(items: Record<string, unknown>[]): HourlyCount[] {
  const now = Math.floor(Date.now() / 1000);
  const live = items.filter((item) => typeof item[TTL_ATTRIBUTE] !== 'number' || (item[TTL_ATTRIBUTE] as number) > now);
  const counts = new Map<string, HourlyCount>();
  for (const count of live.map(toCount)) {
    const key = JSON.stringify([count.hour, count.feature, count.environment]);
    const earlier = counts.get(key);
    counts.set(key, earlier ? sum(earlier, count) : count);
  }
  return [...counts.values()];
}

function sum(a: HourlyCount, b: HourlyCount): HourlyCount {
  const variants: Record<string, number> = { ...a.variants };
  for (const [name, n] of Object.entries(b.variants ?? {})) variants[name] = (variants[name] ?? 0) + n;
  return { ...a, yes: a.yes + b.yes, no: a.no + b.no, apps: [...new Set([...(a.apps ?? []), ...(b.apps ?? [])])], variants };
}

function toCount(item: Record<string, unknown>): HourlyCount {
  return {
    hour: String(item.hour),
    feature: String(item.feature),
    environment: String(item.environment),
    yes: Number(item.yes ?? 0),
    no: Number(item.no ?? 0),
    apps: item.apps instanceof Set ? [...(item.apps as Set<string>)] : [],
    variants: Object.fromEntries(
      Object.entries(item).filter(([name]) => name.startsWith(VARIANT_PREFIX)).map(([name, n]) => [name.slice(VARIANT_PREFIX.length), Number(n)]),
    ),
  };
}

const always = () => true;

/** A counter's variant counts are its attributes named `variant#<name>`. */
const VARIANT_PREFIX = 'variant#';

/**
 * Runs `work` on the items, WRITE_CONCURRENCY at a time, starting each only while `startWhile`
 * holds (the writer's deadline); a failed item does not stop the others. Resolves to what was
 * not done: the items never started and the ones that failed, with the first failure.
 */
async function forEachLimited<T>(items: T[], startWhile: () => boolean, work: (item: T) => Promise<void>): Promise<WritesLeft<T>> {
  let next = 0;
  const failed: T[] = [];
  let failure: unknown;
  const worker = async () => {
    while (next < items.length && startWhile()) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (error) {
        failed.push(item);
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, items.length) }, worker));
  return { left: [...failed, ...items.slice(next)], ...(failure === undefined ? {} : { failure }) };
}
