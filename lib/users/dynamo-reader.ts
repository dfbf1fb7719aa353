import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchGet } from '../store/batch-get.js';
import { keys, type ItemKey } from '../store/table-design.js';
import type { User } from './model.js';

/**
 * A user by id, read on DynamoDB: all the admin edge reads of users to resolve a session, so
 * every admin function's bundle holds this instead of the store's writes (`DynamoUserStore`
 * extends it).
 */
export class DynamoUserReader {
  constructor(
    protected readonly db: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  async get(id: number): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(id), ConsistentRead: true }));
    return Item ? toUser(Item) : undefined;
  }

  /**
   * The user and another item read with it, in one strongly consistent BatchGetItem: a session
   * names its user, so resolving it is one request instead of two, and as fresh as two GetItems.
   */
  async getWith(id: number, other: ItemKey): Promise<{ user: User | undefined; other: Record<string, unknown> | undefined }> {
    const userKey = keys.user(id);
    const items = await batchGet(this.db, this.tableName, [userKey, other]);
    const find = (key: ItemKey) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
    const user = find(userKey);
    return { user: user ? toUser(user) : undefined, other: find(other) };
  }
}

export function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...user } = item;
  return user as unknown as User;
}
