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
   * The user and other items read with it, in one strongly consistent BatchGetItem: a session
   * names its user, so resolving it (the session, the user, the groups' revision) is one request
   * instead of three, and as fresh as three GetItems. `others` answers in the order of `otherKeys`.
   */
  async getWith(id: number, otherKeys: readonly ItemKey[]): Promise<{ user: User | undefined; others: Array<Record<string, unknown> | undefined> }> {
    const userKey = keys.user(id);
    const items = await batchGet(this.db, this.tableName, [userKey, ...otherKeys]);
    const find = (key: ItemKey) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
    const user = find(userKey);
    return { user: user ? toUser(user) : undefined, others: otherKeys.map(find) };
  }
}

export function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...user } = item;
  return user as unknown as User;
}
