import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './table-design.js';

/** DynamoDB's limit on keys in one BatchGetItem. */
const BATCH_SIZE = 100;

/**
 * Reads many items by key with strongly consistent reads, 100 keys a call, asking again for
 * whatever DynamoDB left unprocessed. Missing items are simply absent from the answer.
 * `projection` names the attributes to read (e.g. the keys alone, to learn which items exist).
 */
export async function batchGet(
  db: DynamoDBDocumentClient,
  tableName: string,
  itemKeys: ItemKey[],
  projection?: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  for (let start = 0; start < itemKeys.length; start += BATCH_SIZE) {
    let pending: ItemKey[] = itemKeys.slice(start, start + BATCH_SIZE);
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
      const answer = await db.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true, ...(projection ? { ProjectionExpression: projection } : {}) } } }),
      );
      items.push(...((answer.Responses?.[tableName] ?? []) as Record<string, unknown>[]));
      pending = (answer.UnprocessedKeys?.[tableName]?.Keys ?? []) as ItemKey[];
    }
  }
  return items;
}
