import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { HourlyCount, MetricsStore, SeenFeature } from './store.js';
import { isConditionFailed } from '../store/dynamo-errors.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

/** Writes in flight per report: enough to finish a thousand toggles in well under a second. */
const WRITE_CONCURRENCY = 16;

/**
 * SDK usage on DynamoDB: hourly counters (one item per hour, feature and environment, grown
 * with atomic ADD so concurrent reports add up) and last-seen items. Plain UpdateItems, never
 * in a transaction with the revision: metrics must not invalidate the SDK payload.
 */
export class DynamoMetricsStore implements MetricsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async addHourlyCounts(counts: HourlyCount[], startWhile: () => boolean = always): Promise<number> {
    return forEachLimited(counts, startWhile, async (count) => {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.hourlyMetrics(count.hour, count.feature, count.environment),
          // A string set of reporting apps grows with ADD too (an empty set cannot be stored).
          UpdateExpression: `ADD #yes :yes, #no :no${count.apps?.length ? ', apps :apps' : ''} SET #feature = :feature, #environment = :environment, #hour = :hour`,
          ExpressionAttributeNames: { '#yes': 'yes', '#no': 'no', '#feature': 'feature', '#environment': 'environment', '#hour': 'hour' },
          ExpressionAttributeValues: {
            ':yes': count.yes,
            ':no': count.no,
            ':feature': count.feature,
            ':environment': count.environment,
            ':hour': count.hour,
            ...(count.apps?.length ? { ':apps': new Set(count.apps) } : {}),
          },
        }),
      );
    });
  }

  async markSeen(seen: SeenFeature[], at: string, startWhile: () => boolean = always): Promise<number> {
    return forEachLimited(seen, startWhile, async ({ feature, environment }) => {
      try {
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: keys.lastSeen(feature, environment),
            UpdateExpression: 'SET #feature = :feature, #environment = :environment, lastSeenAt = :at',
            // ISO times order as text; a slower report must not move the time backwards.
            ConditionExpression: 'attribute_not_exists(lastSeenAt) OR lastSeenAt < :at',
            ExpressionAttributeNames: { '#feature': 'feature', '#environment': 'environment' },
            ExpressionAttributeValues: { ':feature': feature, ':environment': environment, ':at': at },
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
    return items.map((item) => ({
      hour: String(item.hour),
      feature: String(item.feature),
      environment: String(item.environment),
      yes: Number(item.yes ?? 0),
      no: Number(item.no ?? 0),
      apps: item.apps instanceof Set ? [...(item.apps as Set<string>)] : [],
    }));
  }
}

const always = () => true;

/**
 * Runs `work` on the items, WRITE_CONCURRENCY at a time, starting each only while `startWhile`
 * holds (a report's writes stop in time for it to answer); resolves to how many it started.
 */
async function forEachLimited<T>(items: T[], startWhile: () => boolean, work: (item: T) => Promise<void>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && startWhile()) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, items.length) }, worker));
  return next;
}
