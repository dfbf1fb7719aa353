import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationFailed } from '../errors.js';
import { unresolvedConflict } from './error-translation.js';
import { EVENT_COUNT_SHARDS, EVENT_COUNTED_ATTRIBUTE, KEY, keys } from './table-design.js';

export type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

export type TransactionOutcome = { ok: true } | { ok: false; failedIndex: number };

/**
 * Applies all items or none. When a condition fails it answers which item's condition it was,
 * so the caller can tell a concurrent change from a taken name or a missing reference. Every
 * other refusal (a DynamoDB limit, an outage) arrives already translated by the client
 * (error-translation.ts) and passes through.
 */
export async function transactWriteDetailed(
  db: DynamoDBDocumentClient,
  items: TransactWriteItem[],
  options: TransactOptions = {},
): Promise<TransactionOutcome> {
  const counted = countedEvents(items);
  const touched = items.length + counted.months.size;
  if (touched > MAX_TRANSACTION_ITEMS) {
    throw new ValidationFailed(`The change touches ${touched} items; one atomic change may touch at most ${MAX_TRANSACTION_ITEMS}`);
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      // A fresh shard each attempt: a conflict on a counter is another writer of the same one.
      await db.send(new TransactWriteCommand({ TransactItems: [...counted.items, ...countUpdates(counted)] }));
      return { ok: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) return { ok: false, failedIndex };
      const lostRace = reasons.findIndex((reason, index) => reason.Code === 'TransactionConflict' && index < items.length && options.lostRace?.(index));
      if (lostRace >= 0) return { ok: false, failedIndex: lostRace };
      // Another transaction held one of the items. Nothing was applied, so the same transaction
      // is tried again; its conditions then decide against whatever the other one wrote.
      if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) throw unresolvedConflict(error);
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));
    }
  }
}

export interface TransactOptions {
  /**
   * Items whose conflict with a concurrent transaction means this one was computed from data
   * that is about to change (a version-checked aggregate): it is answered as that item's
   * failed condition at once, so the caller re-reads, instead of resending a stale transaction.
   */
  lostRace?: (index: number) => boolean;
}

/** How often a transaction cancelled by a concurrent one is tried in all. */
const CONFLICT_ATTEMPTS = 8;

/** Applies all items or none; answers false when a condition in it failed. */
export async function transactWrite(db: DynamoDBDocumentClient, items: TransactWriteItem[]): Promise<boolean> {
  return (await transactWriteDetailed(db, items)).ok;
}

/**
 * The event items of a transaction, each marked as counted, and how many each month gets (ADR
 * 26): the transaction adds that number to one of the month's counters, so counter and events
 * commit together, and a reader that holds as many counted events of a month as its counters
 * sum to holds every one of them without reading the month again. Every transaction of the
 * service goes through here, whichever store wrote the event item.
 */
function countedEvents(items: TransactWriteItem[]): CountedEvents {
  const months = new Map<string, { written: number; latest: string }>();
  let tableName: string | undefined;
  const marked = items.map((item) => {
    const partition = item.Put?.Item?.[KEY.partition];
    if (!item.Put || typeof partition !== 'string' || !partition.startsWith(EVENT_PARTITION_PREFIX)) return item;
    const month = partition.slice(EVENT_PARTITION_PREFIX.length);
    const createdAt = String(item.Put.Item?.createdAt ?? '');
    const before = months.get(month);
    months.set(month, { written: (before?.written ?? 0) + 1, latest: before && before.latest > createdAt ? before.latest : createdAt });
    tableName = item.Put.TableName;
    return { ...item, Put: { ...item.Put, Item: { ...item.Put.Item, [EVENT_COUNTED_ATTRIBUTE]: true } } };
  });
  return { items: marked, months, tableName };
}

interface CountedEvents {
  items: TransactWriteItem[];
  /** Events written, by month (`yyyy-mm`), and the latest createdAt among them. */
  months: Map<string, { written: number; latest: string }>;
  tableName: string | undefined;
}

const EVENT_PARTITION_PREFIX = keys.eventsOfMonth('').pk;

/**
 * One counter update per month, each on a shard picked at random; after the caller's items, so a
 * failed index still points into them. A shard's first update also records when counting began
 * (the creation time of the events it counted first): readers trust a month's counters from
 * SETTLE_MS after its earliest shard began, when no writer that does not count (the code before
 * ADR 26, during the deployment that brought it) still commits events.
 */
function countUpdates({ months, tableName }: CountedEvents): TransactWriteItem[] {
  return [...months].map(([month, { written, latest }]) => ({
    Update: {
      TableName: tableName,
      Key: keys.eventCountShard(month, Math.floor(Math.random() * EVENT_COUNT_SHARDS)),
      UpdateExpression: 'SET countingSince = if_not_exists(countingSince, :since) ADD written :written',
      ExpressionAttributeValues: { ':written': written, ':since': Number.isNaN(Date.parse(latest)) ? Date.now() : Date.parse(latest) },
    },
  }));
}
