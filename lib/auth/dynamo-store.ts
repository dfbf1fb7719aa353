import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ResetToken } from './model.js';
import type { PasswordLoginStore, ResetTokenStore } from './store.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { keys } from '../store/table-design.js';

/** Reset tokens keyed by the hash of their secret; `expiresAt` in epoch seconds is the table's TTL attribute. */
export class DynamoResetTokenStore implements ResetTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(token: ResetToken): Promise<void> {
    const { secretHash, expiresAt, ...rest } = token;
    await this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keys.resetToken(secretHash), ...rest, expiresAt: Math.ceil(expiresAt / 1000) },
    }));
  }

  async get(secretHash: string): Promise<ResetToken | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.resetToken(secretHash), ConsistentRead: true }));
    if (!Item) return undefined;
    return {
      secretHash,
      userId: Item.userId as number,
      createdBy: Item.createdBy as string,
      createdAt: Item.createdAt as string,
      expiresAt: (Item.expiresAt as number) * 1000,
      usedAt: (Item.usedAt as string | null | undefined) ?? null,
    };
  }

  /** One conditional write: of two requests with the same link, one wins. */
  use(secretHash: string, now: Date): Promise<boolean> {
    return conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.resetToken(secretHash),
      UpdateExpression: 'SET usedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_type(usedAt, :null) AND expiresAt > :seconds',
      ExpressionAttributeValues: { ':now': now.toISOString(), ':null': 'NULL', ':seconds': Math.floor(now.getTime() / 1000) },
    })));
  }
}

/** Unleash's simple-auth setting, beside the other login settings in the SETTINGS partition. */
export class DynamoPasswordLoginStore implements PasswordLoginStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async disabled(): Promise<boolean> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.passwordLoginSettings(), ConsistentRead: true }));
    return Item?.disabled === true;
  }

  async setDisabled(disabled: boolean, by: string, at: string): Promise<void> {
    await this.db.send(new PutCommand({
      TableName: this.tableName, Item: { ...keys.passwordLoginSettings(), disabled, updatedBy: by, updatedAt: at },
    }));
  }
}
