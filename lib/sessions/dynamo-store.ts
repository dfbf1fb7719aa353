import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Session } from './model.js';
import type { SessionStore } from './store.js';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';

/**
 * A user's sessions share the user's partition, so ending all of them is one Query (a single
 * sign-on session's ID token item too: its sort key starts with the session's). The
 * item's `expiresAt` is in epoch seconds, the table's TTL attribute: DynamoDB deletes ended
 * sessions by itself.
 */
export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(session: Session, idToken?: string): Promise<void> {
    const expiresAt = Math.ceil(session.expiresAt / 1000);
    // The token first: a session that exists always finds its token for logout.
    if (idToken) {
      await this.db.send(new PutCommand({
        TableName: this.tableName, Item: { ...keys.sessionIdToken(session.userId, session.secretHash), idToken, expiresAt },
      }));
    }
    await this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: {
        ...keys.session(session.userId, session.secretHash),
        userId: session.userId,
        createdAt: session.createdAt,
        passwordVersion: session.passwordVersion,
        expiresAt,
        ...(idToken ? { sso: true } : {}),
      },
    }));
  }

  async idTokenOf(userId: number, secretHash: string): Promise<string | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sessionIdToken(userId, secretHash), ConsistentRead: true }));
    return typeof Item?.idToken === 'string' ? Item.idToken : undefined;
  }

  async get(userId: number, secretHash: string): Promise<Session | undefined> {
    // Strongly consistent: the UI asks who is logged in right after the login wrote the session.
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.session(userId, secretHash), ConsistentRead: true }),
    );
    return Item ? sessionOfItem(userId, secretHash, Item) : undefined;
  }

  /** The session first: once it is gone nothing reads its ID token, which the TTL would end anyway. */
  async delete(userId: number, secretHash: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.session(userId, secretHash) }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.sessionIdToken(userId, secretHash) }));
  }

  async deleteAllOf(userId: number): Promise<void> {
    const items = await queryCollection(this.db, this.tableName, keys.sessionsOf(userId));
    await Promise.all(items.map((item) =>
      this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: item.pk as string, sk: item.sk as string } }))));
  }
}

/** A session as stored (its `expiresAt` in epoch seconds, the TTL attribute), for whoever reads its item. */
export function sessionOfItem(userId: number, secretHash: string, item: Record<string, unknown>): Session {
  return {
    userId, secretHash, createdAt: item.createdAt as string, passwordVersion: (item.passwordVersion as number | undefined) ?? 0,
    expiresAt: (item.expiresAt as number) * 1000,
    ...(item.sso === true ? { sso: true } : {}),
  };
}
