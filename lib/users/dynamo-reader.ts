import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../store/table-design.js';
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
}

export function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...user } = item;
  return user as unknown as User;
}
