import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from './model.js';
import type { SessionStore } from './store.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

/**
 * A user's sessions share the user's partition, so logging out everywhere is one Query. The
 * item's `expiresAt` is in epoch seconds, the table's TTL attribute: DynamoDB deletes ended
 * sessions by itself.
 */
export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(session: Session): Promise<void> {
    await this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...keys.session(session.userId, session.secretHash),
        userId: session.userId,
        createdAt: session.createdAt,
        passwordVersion: session.passwordVersion,
        expiresAt: Math.ceil(session.expiresAt / 1000),
        ...(session.idToken ? { idToken: session.idToken } : {}),
      },
    }));
  }

  async get(userId: number, secretHash: string): Promise<Session | undefined> {
    // Strongly consistent: the UI asks who is logged in right after the login wrote the session.
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.session(userId, secretHash), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    return {
      userId, secretHash, createdAt: Item.createdAt as string, passwordVersion: (Item.passwordVersion as number | undefined) ?? 0,
      expiresAt: (Item.expiresAt as number) * 1000,
      ...(typeof Item.idToken === 'string' ? { idToken: Item.idToken } : {}),
    };
  }

  async delete(userId: number, secretHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.session(userId, secretHash) }));
  }

  async deleteAllOf(userId: number): Promise<void> {
    const items = await queryCollection(this.db, this.tableName, keys.sessionsOf(userId));
    await Promise.all(items.map((item) =>
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: item.pk as string, sk: item.sk as string } }))));
  }
}
