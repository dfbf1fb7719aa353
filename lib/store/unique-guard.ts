import type { ItemKey } from './table-design.js';
import type { TransactWriteItem } from './transact.js';

/**
 * Uniqueness guards: one item per unique value (an e-mail, a group name …), written in the same
 * transaction as the item that owns the value. `attribute_not_exists` makes the second of two
 * concurrent claims fail, whichever process or Lambda makes it.
 */
export function claimGuard(tableName: string, key: ItemKey, owner: number): TransactWriteItem {
  return {
    Put: {
      TableName: tableName,
      Item: { ...key, owner },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Releases a guard only while it still names the owner, so a stale writer cannot free someone else's value. */
export function releaseGuard(tableName: string, key: ItemKey, owner: number): TransactWriteItem {
  return {
    Delete: {
      TableName: tableName,
      Key: key,
      ConditionExpression: '#owner = :owner',
      ExpressionAttributeNames: { '#owner': 'owner' },
      ExpressionAttributeValues: { ':owner': owner },
    },
  };
}

/**
 * Moves a guard from one value to another within the owner's transaction: nothing when the value
 * did not change, a release and a claim when it did.
 */
export function moveGuard(
  tableName: string,
  before: ItemKey | undefined,
  after: ItemKey | undefined,
  owner: number,
): TransactWriteItem[] {
  if (before?.sk === after?.sk && before?.pk === after?.pk) return [];
  return [
    ...(before ? [releaseGuard(tableName, before, owner)] : []),
    ...(after ? [claimGuard(tableName, after, owner)] : []),
  ];
}
