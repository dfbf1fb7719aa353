import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { identityHash, uniqueKeysOf, type SsoIdentity, type User } from './model.js';
import type { Credentials, UserInsertOutcome, UserReplaceOutcome, UserStore } from './store.js';
import { conditionalWrite } from '../store/dynamo-errors.js';
import { batchGet } from '../store/batch-get.js';
import { nextCounterValue } from '../store/counter.js';
import { queryCollection } from '../store/query.js';
import { keys, type ItemKey } from '../store/table-design.js';
import { changeEvent } from '../events/model.js';
import { eventItem } from '../events/dynamo-store.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';
import { claimGuard, moveGuard, releaseGuard } from '../store/unique-guard.js';

/**
 * Users are numbered by an atomic counter. Each e-mail and username is held by a guard item
 * written in the user's own transaction, so two concurrent creates with one e-mail end with
 * one user. Memberships live in the group items; deleting a user removes them in the same
 * transaction.
 */
export class DynamoUserStore implements UserStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  nextId(): Promise<number> {
    return nextCounterValue(this.db, this.tableName, 'user');
  }

  async list(): Promise<User[]> {
    return (await queryCollection(this.db, this.tableName, keys.users())).map(toUser);
  }

  async get(id: number): Promise<User | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(id), ConsistentRead: true }));
    return Item ? toUser(Item) : undefined;
  }

  async getMany(ids: number[]): Promise<User[]> {
    const unique = [...new Set(ids)];
    return (await batchGet(this.db, this.tableName, unique.map(keys.user))).map(toUser);
  }

  async insert(user: User, now: string, actor: string, passwordHash?: string): Promise<UserInsertOutcome> {
    const guards = guardKeys(user);
    const items: TransactWriteItem[] = [
      { Put: { TableName: this.tableName, Item: { ...keys.user(user.id), ...user }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...(passwordHash ? [{ Put: { TableName: this.tableName, Item: passwordItem(user.id, passwordHash, now) } }] : []),
      ...(guards.email ? [claimGuard(this.tableName, guards.email, user.id)] : []),
      ...(guards.username ? [claimGuard(this.tableName, guards.username, user.id)] : []),
      ...identityKeys(user).map((key) => claimGuard(this.tableName, key, user.id)),
      ...(user.signupToken ? [this.signupStillOpen(user.signupToken, now)] : []),
      this.event('user-created', user.id, actor),
    ];
    const outcome = await transactWriteDetailed(this.db, items);
    if (outcome.ok) return 'done';
    const failed = outcomeAt(items, outcome.failedIndex, guards);
    // Ids come from the counter, so only a broken counter could make the user item itself fail.
    if (failed === 'changed') throw new Error(`User id ${user.id} is already in use`);
    return failed;
  }

  async linkIdentity(before: User, identity: SsoIdentity, actor: string): Promise<'done' | 'changed' | 'identity-taken'> {
    const after: User = { ...before, ssoIdentities: [...(before.ssoIdentities ?? []), identity], version: before.version + 1 };
    const outcome = await transactWriteDetailed(this.db, [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.user(before.id), ...after },
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
      claimGuard(this.tableName, keys.userSsoIdentity(identityHash(identity)), before.id),
      this.event('user-updated', before.id, actor),
    ]);
    if (outcome.ok) return 'done';
    return outcome.failedIndex === 1 ? 'identity-taken' : 'changed';
  }

  async replace(before: User, after: User, actor: string): Promise<UserReplaceOutcome> {
    const [was, will] = [guardKeys(before), guardKeys(after)];
    const items: TransactWriteItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: { ...keys.user(after.id), ...after, version: before.version + 1 },
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
      ...moveGuard(this.tableName, was.email, will.email, before.id),
      ...moveGuard(this.tableName, was.username, will.username, before.id),
      this.event('user-updated', after.id, actor),
    ];
    const outcome = await transactWriteDetailed(this.db, items);
    if (outcome.ok) return 'done';
    const failed = outcomeAt(items, outcome.failedIndex, will);
    return failed === 'signup-closed' || failed === 'identity-taken' ? 'changed' : failed;
  }

  async delete(user: User, groupIds: number[], actor: string): Promise<'done' | 'changed'> {
    const guards = guardKeys(user);
    const items: TransactWriteItem[] = [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.user(user.id),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': user.version },
        },
      },
      ...(guards.email ? [releaseGuard(this.tableName, guards.email, user.id)] : []),
      ...(guards.username ? [releaseGuard(this.tableName, guards.username, user.id)] : []),
      ...identityKeys(user).map((key) => releaseGuard(this.tableName, key, user.id)),
      ...groupIds.map((groupId) => this.leaveGroup(groupId, user.id)),
      { Delete: { TableName: this.tableName, Key: keys.userPassword(user.id) } },
      this.event('user-deleted', user.id, actor),
    ];
    return (await transactWriteDetailed(this.db, items)).ok ? 'done' : 'changed';
  }

  async idOfLogin(kind: 'email' | 'username', value: string): Promise<number | undefined> {
    const key = kind === 'email' ? keys.userEmail(value) : keys.userUsername(value);
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return typeof Item?.owner === 'number' ? Item.owner : undefined;
  }

  async idOfIdentity(identity: SsoIdentity): Promise<number | undefined> {
    const { Item } = await this.db.send(new GetCommand({
      TableName: this.tableName, Key: keys.userSsoIdentity(identityHash(identity)), ConsistentRead: true,
    }));
    return typeof Item?.owner === 'number' ? Item.owner : undefined;
  }

  async credentials(id: number): Promise<Credentials | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.userPassword(id), ConsistentRead: true }));
    if (!Item) return undefined;
    return { passwordHash: Item.passwordHash as string, lastFailedLoginAt: (Item.lastFailedLoginAt as string | undefined) ?? null };
  }

  /** No change event: a password is no one's business but its owner's, and Unleash records none either. */
  /**
   * A new password ends the user's sessions (passwordVersion) and any wait for failed logins (an
   * admin's reset lets a locked-out user in at once), in one transaction.
   */
  async setPassword(id: number, passwordHash: string, at: string): Promise<'done' | 'gone'> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName, Key: keys.user(id), ConditionExpression: 'attribute_exists(pk)',
          UpdateExpression: 'SET loginAttempts = :zero, passwordVersion = if_not_exists(passwordVersion, :zero) + :one, version = version + :one',
          ExpressionAttributeValues: { ':zero': 0, ':one': 1 },
        },
      },
      { Put: { TableName: this.tableName, Item: passwordItem(id, passwordHash, at) } },
    ]);
    return outcome.ok ? 'done' : 'gone';
  }

  /** The version moves, so an admin's update computed before the failure does not put the count back. */
  async recordFailedLogin(id: number, at: string): Promise<void> {
    await Promise.all([
      this.countLogin(id, 'SET loginAttempts = loginAttempts + :one, version = version + :one', { ':one': 1 }),
      conditionalWrite(() => this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: keys.userPassword(id),
        UpdateExpression: 'SET lastFailedLoginAt = :at',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      }))),
    ]);
  }

  async recordLogin(id: number, at: string): Promise<void> {
    await this.countLogin(id, 'SET loginAttempts = :zero, seenAt = :at, version = version + :one', { ':zero': 0, ':at': at, ':one': 1 });
  }

  /** A user deleted meanwhile is left deleted: the condition keeps the update from recreating it. */
  private async countLogin(id: number, update: string, values: Record<string, unknown>): Promise<void> {
    await conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.user(id),
      UpdateExpression: update,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    })));
  }

  /** Access changes are recorded in the transactions that make them (no personal data in the event). */
  private event(type: string, userId: number, actor: string): TransactWriteItem {
    return eventItem(this.tableName, changeEvent(type, { changes: [`user:${userId}`] }, actor));
  }

  /** The group's version moves too, so a group update computed before this delete is retried. */
  private leaveGroup(groupId: number, userId: number): TransactWriteItem {
    return {
      Update: {
        TableName: this.tableName,
        Key: keys.group(groupId),
        UpdateExpression: 'REMOVE members.#user SET version = version + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#user': String(userId) },
        ExpressionAttributeValues: { ':one': 1 },
      },
    };
  }

  private signupStillOpen(secret: string, now: string): TransactWriteItem {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: keys.signupToken(secret),
        ConditionExpression: 'enabled = :true AND expiresAt > :now',
        ExpressionAttributeValues: { ':true': true, ':now': now },
      },
    };
  }
}

interface GuardKeys {
  email: ItemKey | undefined;
  username: ItemKey | undefined;
}

function guardKeys(user: User): GuardKeys {
  const unique = uniqueKeysOf(user);
  return {
    email: unique.email === null ? undefined : keys.userEmail(unique.email),
    username: unique.username === null ? undefined : keys.userUsername(unique.username),
  };
}

function identityKeys(user: User): ItemKey[] {
  return (user.ssoIdentities ?? []).map((identity) => keys.userSsoIdentity(identityHash(identity)));
}

/** Names the outcome from the item whose condition failed: a claimed guard, the signup token, or the user itself. */
function outcomeAt(
  items: TransactWriteItem[],
  failedIndex: number,
  claimed: GuardKeys,
): 'email-taken' | 'username-taken' | 'identity-taken' | 'signup-closed' | 'changed' {
  const item = items[failedIndex];
  if (item?.ConditionCheck) return 'signup-closed';
  const key = item?.Put?.Item;
  if (item?.Put && key?.sk === claimed.email?.sk) return 'email-taken';
  if (item?.Put && key?.sk === claimed.username?.sk) return 'username-taken';
  if (item?.Put && key?.pk === keys.userSsoIdentity('').pk) return 'identity-taken';
  return 'changed';
}

function passwordItem(id: number, passwordHash: string, at: string): Record<string, unknown> {
  return { ...keys.userPassword(id), passwordHash, updatedAt: at };
}

function toUser(item: Record<string, unknown>): User {
  const { pk: _pk, sk: _sk, ...user } = item;
  return user as unknown as User;
}
