import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { counterExpiry } from './metrics-aggregation.js';
import type { HourlyCount, MetricsStore, SeenFeature, WritesLeft } from './store.js';
import { isConditionFailed } from '../store/dynamo-errors.js';
import { queryCollection } from '../store/query.js';
import { keys, TTL_ATTRIBUTE } from '../store/table-design.js';

/** Writes in flight per batch: enough to finish a thousand keys in well under a second. */
const WRITE_CONCURRENCY = 16;

/**
 * SDK usage on DynamoDB: hourly counters (one item per hour, feature and environment, grown
 * with atomic ADD so concurrent writers add up, deleted by TTL after Unleash's 48 hours) and
 * last-seen items. Only the metrics store stage writes them, once per key and batch (ADR 15).
 * Plain UpdateItems, never in a transaction with the revision: metrics must not invalidate the
 * SDK payload.
 */
export class DynamoMetricsStore implements MetricsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async addHourlyCounts(counts: HourlyCount[], startWhile: () => boolean = always): Promise<WritesLeft<HourlyCount>> {
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

  async hourlyCountsOf(feature: string, hours: readonly string[]): Promise<HourlyCount[]> {
    const pages = await Promise.all(
      hours.map((hour) => queryCollection(this.db, this.tableName, keys.featureHourlyMetrics(hour, feature))),
    );
    return liveCounts(pages.flat());
  }
}

/** DynamoDB deletes expired items some time after they expire: until then they are skipped here. */
function liveCounts(items: Record<string, unknown>[]): HourlyCount[] {
  const now = Math.floor(Date.now() / 1000);
  const live = items.filter((item) => typeof item[TTL_ATTRIBUTE] !== 'number' || (item[TTL_ATTRIBUTE] as number) > now);
  return live.map((item) => ({
    hour: String(item.hour),
    feature: String(item.feature),
    environment: String(item.environment),
    yes: Number(item.yes ?? 0),
    no: Number(item.no ?? 0),
    apps: item.apps instanceof Set ? [...(item.apps as Set<string>)] : [],
    variants: Object.fromEntries(
      Object.entries(item).filter(([name]) => name.startsWith(VARIANT_PREFIX)).map(([name, n]) => [name.slice(VARIANT_PREFIX.length), Number(n)]),
    ),
  }));
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
