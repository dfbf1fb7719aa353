import { randomUUID } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationFailed } from '../errors.js';
import { log } from '../log.js';
import { moveGroupsRevisionAgain } from './groups-revision.js';
import { unresolvedConflict } from './error-translation.js';
import { outcomeWasUnknown, UnconfirmedWrite } from './late-writes.js';
import { EVENT_COUNT_SHARDS, EVENT_COUNTED_ATTRIBUTE, KEY, keys } from './table-design.js';

export type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

export type TransactionOutcome =
  | { ok: true }
  | {
      ok: false;
      failedIndex: number;
      /**
       * Only with `verifiesUnknownOutcome`: an earlier attempt of this transaction may have been
       * applied, so the failed condition may be the transaction's own write. The caller reads
       * what it wrote to tell.
       */
      outcomeUnknown?: true;
    };

/**
 * Applies all items or none. When a condition fails it answers which item's condition it was,
 * so the caller can tell a concurrent change from a taken name or a missing reference. Every
 * other refusal (a DynamoDB limit, an outage) arrives already translated by the client
 * (error-translation.ts) and passes through.
 *
 * Each request carries its own ClientRequestToken. While nothing of the transaction can have
 * been applied (every attempt was answered), a conflict is tried again as a new request (new
 * token, new counter shard). Once an attempt's outcome is unknown (it timed out or lost its
 * connection after it was sent: late-writes.ts marks the error), the same request is sent again,
 * token and shard included, so DynamoDB's idempotency decides: within 10 minutes of the first it
 * answers success without writing again if that one was applied and TransactionInProgressException
 * while it is still being applied (both documented by AWS); that it applies the request when the
 * first was not is not documented, and this code relies on no more than that the resend cannot
 * apply the change twice. A new request then could fail its own conditions on what the first one
 * wrote ("id already in use" for a user just created). A condition that still fails after an
 * unknown outcome is answered as UnconfirmedWrite, unless the caller verifies it
 * (`verifiesUnknownOutcome`).
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
  // A fresh shard for each new request: a conflict on a counter is another writer of the same one.
  const newRequest = (): TransactWriteCommandInput => ({ ClientRequestToken: randomUUID(), TransactItems: [...counted.items, ...countUpdates(counted)] });
  let request = newRequest();
  let outcomeUnknown = false;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand(request));
      if (outcomeUnknown) await restampGroupsRevision(db, items);
      return { ok: true };
    } catch (error) {
      // TransactionInProgressException is proof that a request with this token is being applied
      // (an SDK retry of an attempt answered with a 500 meets it): its outcome is unknown too.
      if (outcomeWasUnknown(error) || inProgress(error)) outcomeUnknown = true;
      if (!(error instanceof TransactionCanceledException)) {
        // Still being applied: the same request again learns how it ended.
        if (outcomeUnknown && inProgress(error) && attempt < CONFLICT_ATTEMPTS) {
          await pause(attempt);
          continue;
        }
        // A refusal after an unknown outcome ("too late", a throttle, also on the SDK's own retry
        // within this send) says nothing of the attempt whose outcome is unknown.
        if (outcomeUnknown && !(error instanceof UnconfirmedWrite)) throw new UnconfirmedWrite({ cause: error });
        throw error;
      }
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) {
        if (!outcomeUnknown) return { ok: false, failedIndex };
        if (options.verifiesUnknownOutcome) return { ok: false, failedIndex, outcomeUnknown: true };
        throw new UnconfirmedWrite({ cause: error });
      }
      // A caller that re-reads and recomputes would apply its change twice if the first landed.
      const lostRace = outcomeUnknown ? -1 : reasons.findIndex((reason, index) => reason.Code === 'TransactionConflict' && index < items.length && options.lostRace?.(index));
      if (lostRace >= 0) return { ok: false, failedIndex: lostRace };
      // Another transaction held one of the items. Nothing of this request was applied, so the
      // transaction is tried again; its conditions then decide against whatever the other wrote.
      if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) throw outcomeUnknown ? new UnconfirmedWrite({ cause: error }) : error;
      if (attempt >= CONFLICT_ATTEMPTS) throw outcomeUnknown ? new UnconfirmedWrite({ cause: error }) : unresolvedConflict(error);
      await pause(attempt);
      if (!outcomeUnknown) request = newRequest();
    }
  }
}

/**
 * A transaction that moved the groups' revision and succeeded after an unknown outcome may have
 * committed seconds after its `movedAt` stamp, past the window in which readers distrust a read
 * of the groups (groups-revision.ts): the revision moves once more, stamped now. The change is
 * made whatever this write answers, so its failure is logged, not the request's: until the next
 * move a reader may then keep a read of the groups from the moment of that late commit.
 */
async function restampGroupsRevision(db: DynamoDBDocumentClient, items: TransactWriteItem[]): Promise<void> {
  try {
    await moveGroupsRevisionAgain(db, items);
  } catch (error) {
    log.warn('groups revision not moved again after a late commit', { error: String(error) });
  }
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));
}

/** DynamoDB's answer to a request whose token belongs to a transaction it is still applying. */
function inProgress(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TransactionInProgressException') return true;
  }
  return false;
}

export interface TransactOptions {
  /**
   * Items whose conflict with a concurrent transaction means this one was computed from data
   * that is about to change (a version-checked aggregate): it is answered as that item's
   * failed condition at once, so the caller re-reads, instead of resending a stale transaction.
   */
  lostRace?: (index: number) => boolean;
  /**
   * The caller tells for itself whether a failed condition after an unknown outcome is the
   * transaction's own earlier write (it reads the item back): it gets `outcomeUnknown` in the
   * outcome instead of an UnconfirmedWrite.
   */
  verifiesUnknownOutcome?: boolean;
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
