import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors.js';
import { timeLeft } from '../request-deadline.js';
import type { CollectionPrefix } from './table-design.js';

/**
 * A large collection read in one go (every feature, for a cold SDK container or a full list)
 * can pass DynamoDB's 3,000 read units a second for its partition key: past about 12 MB a second
 * the rest of the pages are throttled. A throttled page is read again after a pause, so the read
 * is paced to the partition's throughput instead of failing; a read repeats nothing.
 */
const THROTTLED_PAGE_PAUSE_MS = 250;
/** At most this many pauses in one collection read (about 8 s of waiting). */
const THROTTLED_PAGE_RETRIES = 32;

/**
 * Items a page asks for at most. DynamoDB ends a page at 1 MB or at `Limit` items, whichever
 * comes first; for items over about 1 KB (features, their project copies) 1 MB comes first, so
 * on DynamoDB the pages, read units and round trips are the same as without a limit, and a
 * collection of smaller items takes more, smaller pages (for 100-byte items, ten instead of one
 * per 1 MB). DynamoDB Local needs it: without `Limit` it loads every remaining item of the
 * partition for each page and only then keeps the first 1 MB, so a page's time grows with the
 * partition. Measured with 1.4 KB items, 755 a page: without a limit 0.5 s a page at 10,000
 * items and 3.7 s at 50,000 (with a 2 GB heap; with the 256 MB it gets, past the store's 5 s
 * timeout from 30,000 on); with this limit 0.1 s at 10,000 or 50,000, as on DynamoDB, whose 1 MB
 * page answers in tens of milliseconds whatever the partition holds.
 */
const PAGE_ITEMS = 1_000;

/** Reads every item of one collection, page by page, with a strongly consistent read. */
export async function queryCollection(
  db: DynamoDBDocumentClient,
  tableName: string,
  collection: CollectionPrefix,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  let pauses = 0;
  do {
    const page = await readPage(() => db.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': collection.pk, ':prefix': collection.skPrefix },
        ConsistentRead: true,
        Limit: PAGE_ITEMS,
        ExclusiveStartKey: startKey,
      }),
    ), () => (pauses += 1) <= THROTTLED_PAGE_RETRIES);
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** One page, read again after a pause while DynamoDB throttles it and `mayPause()` allows. */
async function readPage<T>(read: () => Promise<T>, mayPause: () => boolean): Promise<T> {
  for (;;) {
    try {
      return await read();
    } catch (error) {
      if (!throttled(error) || !mayPause() || !hasTimeFor(THROTTLED_PAGE_PAUSE_MS)) throw error;
      await new Promise((resolve) => setTimeout(resolve, THROTTLED_PAGE_PAUSE_MS));
    }
  }
}

function throttled(error: unknown): boolean {
  const cause = error instanceof ServiceUnavailable ? (error.cause as { name?: unknown } | undefined) : undefined;
  return cause?.name === 'ThrottlingException' || cause?.name === 'ProvisionedThroughputExceededException';
}

/** Inside an admin request, a pause must leave time to answer (the SDK path keeps no deadline). */
function hasTimeFor(pauseMs: number): boolean {
  const left = timeLeft();
  return left === undefined || left > pauseMs + 2_000;
}
