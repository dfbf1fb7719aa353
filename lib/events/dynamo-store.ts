import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChangeEvent } from './model.js';
import { EVENT_COUNTED_ATTRIBUTE, INDEXES, keys } from '../store/table-design.js';
import { queryCollection } from '../store/query.js';
import type { TransactWriteItem } from '../store/transact.js';
import type { CountedEventReader, CountedEvents, WrittenEventCount } from './store.js';

/**
 * The transaction item that records an event alongside the change it tells of. An event about a
 * feature also carries the feature's key of the `eventsByFeature` index, so the feature's own log
 * is one Query without a second item in the change's transaction (batch changes are sized by it).
 */
export function eventItem(tableName: string, event: ChangeEvent): TransactWriteItem {
  const byFeature = event.featureName === undefined ? {} : keys.featureEvent(event.featureName, event.createdAt, event.id);
  return { Put: { TableName: tableName, Item: { ...keys.event(event.createdAt, event.id), ...byFeature, ...event } } };
}

/** Tables, by the client that reaches them, whose every event was counted since they were made (ADR 26). */
const countedSinceCreation = new WeakMap<DynamoDBDocumentClient, Set<string>>();

/**
 * Tells this process's readers on `db` that `tableName` was created by this code and is reached
 * by nothing else (`npm start`'s own engine, whose key is secret): no writer that does not count
 * can ever have written it, so its counters are trusted at once rather than SETTLE_MS after a
 * month's first counted event (ADR 26).
 */
export function trustEventCountsOf(db: DynamoDBDocumentClient, tableName: string): void {
  const tables = countedSinceCreation.get(db) ?? new Set<string>();
  tables.add(tableName);
  countedSinceCreation.set(db, tables);
}

export class DynamoEventStore implements CountedEventReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * One Query a month, one after another: callers other than the event search ask for windows
   * that start at their oldest feature, and all at once those months would be a burst of Queries.
   */
  async between(from: Date, to: Date): Promise<ChangeEvent[]> {
    return (await this.betweenCounted(from, to)).events;
  }

  async betweenCounted(from: Date, to: Date, consistent = false): Promise<CountedEvents> {
    const items: Record<string, unknown>[] = [];
    for (const month of monthsBetween(from, to)) {
      items.push(...(await this.readItems({
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.eventsOfMonth(month).pk, ...timeRange(from, to) },
        ...(consistent ? { ConsistentRead: true } : {}),
      })));
    }
    return { events: items.map(toEvent), counted: items.map((item) => item[EVENT_COUNTED_ATTRIBUTE] === true) };
  }

  async writtenCount(month: string): Promise<WrittenEventCount> {
    const shards = await queryCollection(this.db, this.tableName, keys.eventCountShards(month));
    const since = shards.map((shard) => Number(shard.countingSince)).filter((time) => Number.isFinite(time));
    if (countedSinceCreation.get(this.db)?.has(this.tableName)) since.push(0);
    return {
      written: shards.reduce((sum, shard) => sum + Number(shard.written ?? 0), 0),
      countingSince: since.length > 0 ? Math.min(...since) : undefined,
    };
  }

  /**
   * Month after month back from `to`, each read backwards (ScanIndexForward false). The first
   * page is small, as the newest few are what most callers want; each further one four times
   * larger, up to DynamoDB's own page (a megabyte read), so reading far back costs a few more
   * Queries than reading the months whole.
   */
  async *newestFirst(from: Date, to: Date): AsyncGenerator<ChangeEvent[]> {
    let limit: number | undefined = NEWEST_FIRST_PAGE;
    for (const month of monthsBetween(from, to).reverse()) {
      let startKey: Record<string, unknown> | undefined;
      do {
        const page = await this.db.send(new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': keys.eventsOfMonth(month).pk, ...timeRange(from, to) },
          ScanIndexForward: false,
          Limit: limit,
          ExclusiveStartKey: startKey,
        }));
        startKey = page.LastEvaluatedKey;
        limit = limit !== undefined && limit * 4 <= NEWEST_FIRST_LARGEST_LIMITED_PAGE ? limit * 4 : undefined;
        const events = (page.Items ?? []).map(toEvent);
        if (events.length > 0) yield events;
      } while (startKey);
    }
  }

  async ofFeature(featureName: string, from: Date, to: Date): Promise<ChangeEvent[]> {
    const { partitionKey, sortKey, name } = INDEXES.eventsByFeature;
    return this.readAll({
      IndexName: name,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': partitionKey, '#sk': sortKey },
      ExpressionAttributeValues: { ':pk': keys.featureEvents(featureName), ...timeRange(from, to) },
    });
  }

  private async readAll(query: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName' | 'ExclusiveStartKey'>): Promise<ChangeEvent[]> {
    return (await this.readItems(query)).map(toEvent);
  }

  private async readItems(query: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName' | 'ExclusiveStartKey'>): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({ ...query, TableName: this.tableName, ExclusiveStartKey: startKey }));
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}

/** The first page of a newest-first read: the personal dashboard's project card wants ten, the event log's first page 25. */
const NEWEST_FIRST_PAGE = 25;
/** Past this many items a newest-first page is DynamoDB's own (a megabyte read, some thousands of events). */
const NEWEST_FIRST_LARGEST_LIMITED_PAGE = 1600;

/** Sort keys are `<time>#<id>`, so every event before `to` sorts below the bare time. */
function timeRange(from: Date, to: Date) {
  return { ':from': from.toISOString(), ':to': to.toISOString() };
}

function toEvent(item: Record<string, unknown>): ChangeEvent {
  const { pk: _pk, sk: _sk, [INDEXES.eventsByFeature.partitionKey]: _gpk, [INDEXES.eventsByFeature.sortKey]: _gsk, [EVENT_COUNTED_ATTRIBUTE]: _counted, ...event } = item;
  return event as unknown as ChangeEvent;
}

/** `yyyy-mm` of every month that overlaps [from, to), `to` excluded as the reads exclude it. */
function monthsBetween(from: Date, to: Date): string[] {
  const months: string[] = [];
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const cursor = new Date(new Date(0).setUTCFullYear(from.getUTCFullYear(), from.getUTCMonth(), 1));
  while (cursor < to) {
    months.push(cursor.toISOString().slice(0, 7));
    cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return months;
}
