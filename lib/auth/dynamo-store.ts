import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LoginFailures, ResetToken } from './model.js';
import type { LoginFailureStore, PasswordLoginStore, ResetTokenStore } from './store.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { keys } from '../store/table-design.js';
import { transactWrite, transactWriteDetailed } from '../store/transact.js';
import { passwordWrite } from '../users/dynamo-store.js';

/**
 * Reset tokens keyed by the hash of their secret; `expiresAt` in epoch seconds is the table's TTL
 * attribute. Beside them, one item per user names the user's live link: a new link replaces it in
 * the transaction that writes the link, and using a link removes it, so at most one link of a
 * user is ever live.
 */
export class DynamoResetTokenStore implements ResetTokenStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async insert(token: ResetToken): Promise<void> {
    const { secretHash, expiresAt, ...rest } = token;
    const seconds = Math.ceil(expiresAt / 1000);
    await transactWrite(this.db, [
      { Put: { TableName: this.tableName, Item: { ...keys.resetToken(secretHash), ...rest, expiresAt: seconds } } },
      { Put: { TableName: this.tableName, Item: { ...keys.resetLinkOf(token.userId), secretHash, expiresAt: seconds } } },
    ]);
  }

  async get(secretHash: string): Promise<(ResetToken & { current: boolean }) | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.resetToken(secretHash), ConsistentRead: true }));
    if (!Item) return undefined;
    const userId = Item.userId as number;
    const live = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.resetLinkOf(userId), ConsistentRead: true }));
    return {
      secretHash,
      userId,
      createdBy: Item.createdBy as string,
      createdAt: Item.createdAt as string,
      expiresAt: (Item.expiresAt as number) * 1000,
      usedAt: (Item.usedAt as string | null | undefined) ?? null,
      // A link made before links were tied to the password is not trusted.
      passwordVersion: typeof Item.passwordVersion === 'number' ? Item.passwordVersion : -1,
      current: live.Item?.secretHash === secretHash,
    };
  }

  /**
   * One transaction: of two requests with the same link, one wins; an admin's password change
   * after the link was checked makes it fail instead of being overwritten; and a failure leaves
   * the link as it was, never used up without a new password.
   */
  async useToSetPassword(
    token: Pick<ResetToken, 'secretHash' | 'userId' | 'passwordVersion'>, passwordHash: string, now: Date,
  ): Promise<'done' | 'used' | 'ended'> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.resetToken(token.secretHash),
          UpdateExpression: 'SET usedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_type(usedAt, :null) AND expiresAt > :seconds',
          ExpressionAttributeValues: { ':now': now.toISOString(), ':null': 'NULL', ':seconds': Math.floor(now.getTime() / 1000) },
        },
      },
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.resetLinkOf(token.userId),
          ConditionExpression: 'secretHash = :hash',
          ExpressionAttributeValues: { ':hash': token.secretHash },
        },
      },
      ...passwordWrite(this.tableName, token.userId, passwordHash, now.toISOString(), token.passwordVersion),
    ]);
    if (outcome.ok) return 'done';
    return outcome.failedIndex === 0 ? 'used' : 'ended';
  }
}

/**
 * A count of failed logins per login name and client address; `expiresAt` in epoch seconds is
 * the table's TTL attribute, so counts nobody adds to go away by themselves.
 */
export class DynamoLoginFailureStore implements LoginFailureStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get(loginKey: string, address: string): Promise<LoginFailures | undefined> {
    const { Item } = await this.db.send(new GetCommand({
      TableName: this.tableName, Key: keys.loginFailures(loginKey, address), ConsistentRead: true,
    }));
    if (!Item) return undefined;
    return { failures: Item.failures as number, notBefore: Item.notBefore as number, expiresAt: (Item.expiresAt as number) * 1000 };
  }

  /** Conditional on the count read, so two tries at once are counted one after the other. */
  replace(loginKey: string, address: string, read: LoginFailures | undefined, next: LoginFailures): Promise<boolean> {
    return conditionalWrite(() => this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...keys.loginFailures(loginKey, address), failures: next.failures, notBefore: next.notBefore, expiresAt: Math.ceil(next.expiresAt / 1000) },
      ...(read
        ? {
          ConditionExpression: 'failures = :failures AND notBefore = :notBefore',
          ExpressionAttributeValues: { ':failures': read.failures, ':notBefore': read.notBefore },
        }
        : { ConditionExpression: 'attribute_not_exists(pk)' }),
    })));
  }

  async forget(loginKey: string, address: string): Promise<void> {
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.loginFailures(loginKey, address) }));
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
