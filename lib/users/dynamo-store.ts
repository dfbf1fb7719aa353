import { isDeepStrictEqual } from 'node:util';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoUserReader, toUser } from './dynamo-reader.js';
import { identityHash, uniqueKeysOf, type SsoIdentity, type User } from './model.js';
import type { Credentials, UserInsertOutcome, UserReplaceOutcome, UserStore } from './store.js';
import { conditionalWrite, retryWhileHeldByTransaction } from '../store/dynamo-errors.js';
import { batchGet } from '../store/batch-get.js';
import { nextCounterValue } from '../store/counter.js';
import { moveGroupsRevision } from '../store/groups-revision.js';
import { queryCollection } from '../store/query.js';
import { keys, type ItemKey } from '../store/table-design.js';
import { changeEvent } from '../events/model.js';
import { eventItem } from '../events/dynamo-store.js';
import { personalTokenRemovals } from '../personal-access-tokens/dynamo-store.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';
import { UnconfirmedWrite } from '../store/late-writes.js';
import { claimGuard, moveGuard, releaseGuard } from '../store/unique-guard.js';

/**
 * Users are numbered by an atomic counter. Each e-mail and username is held by a guard item
 * written in the user's own transaction, so two concurrent creates with one e-mail end with
 * one user. Memberships live in the group items; deleting a user removes them, and the user's
 * personal access tokens, in the same transaction.
 */
export class DynamoUserStore extends DynamoUserReader implements UserStore {
  nextId(): Promise<number> {
    return nextCounterValue(this.db, this.tableName, 'user');
  }

  async list(): Promise<User[]> {
    return (await queryCollection(this.db, this.tableName, keys.users())).map(toUser);
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
    const outcome = await transactWriteDetailed(this.db, items, { verifiesUnknownOutcome: true });
    if (outcome.ok) return 'done';
    // An earlier attempt may have been applied, and then the failed condition is its own write.
    // The transaction is all or nothing, so the user item tells: holding exactly what was
    // written, the user was created; absent, nothing was, and the failure is the answer.
    if (outcome.outcomeUnknown) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.user(user.id), ConsistentRead: true }));
      if (Item && isDeepStrictEqual(Item, asStored(items[0]!.Put!.Item!))) return 'done';
      if (Item) throw new UnconfirmedWrite();
    }
    const failed = outcomeAt(items, outcome.failedIndex, guards);
    // Ids come from an atomic counter (an SDK retry of its ADD can only skip one), and a resent
    // transaction carries its first request's token: only a broken counter makes the user item
    // itself fail.
    if (failed === 'changed') throw new Error(`User id ${user.id} is already in use`);
    return failed;
  }

  /** Only the identities and the version: the login bookkeeping beside them is not the link's to write. */
  async linkIdentity(before: User, identity: SsoIdentity, actor: string): Promise<'done' | 'changed' | 'identity-taken'> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.user(before.id),
          UpdateExpression: 'SET ssoIdentities = :identities, version = :next',
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':identities': [...(before.ssoIdentities ?? []), identity], ':next': before.version + 1, ':version': before.version },
        },
      },
      claimGuard(this.tableName, keys.userSsoIdentity(identityHash(identity)), before.id),
      this.event('user-updated', before.id, actor),
    ]);
    if (outcome.ok) return 'done';
    return outcome.failedIndex === 1 ? 'identity-taken' : 'changed';
  }

  /**
   * Writes the details that changed, on the version read; the login bookkeeping (`loginAttempts`,
   * `seenAt`) and the password's version are left to the writes that own them, so an update
   * computed before a login or a failed try neither fails on it nor puts an old count back.
   */
  async replace(before: User, after: User, actor: string): Promise<UserReplaceOutcome> {
    const [was, will] = [guardKeys(before), guardKeys(after)];
    const items: TransactWriteItem[] = [
      { Update: { TableName: this.tableName, Key: keys.user(after.id), ...detailsUpdate(before, after) } },
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
      ...(await personalTokenRemovals(this.db, this.tableName, user.id)),
      // Leaving groups changes them: the revision moves with them (docs/adr/0027-groups-revision.md),
      // stamped after the tokens' read, just before the transaction is sent.
      ...(groupIds.length > 0 ? [moveGroupsRevision(this.tableName)] : []),
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
    return { passwordHash: Item.passwordHash as string };
  }

  /**
   * A new password ends the user's sessions and reset links (passwordVersion), in one transaction.
   * No change event: a password is no one's business but its owner's, and Unleash records none either.
   */
  async setPassword(id: number, passwordHash: string, at: string): Promise<'done' | 'gone'> {
    const outcome = await transactWriteDetailed(this.db, passwordWrite(this.tableName, id, passwordHash, at));
    return outcome.ok ? 'done' : 'gone';
  }

  /**
   * Login bookkeeping, written beside the user's details without their version: anyone may send a
   * wrong password, and a version moved by it would make an admin's edit or a single sign-on link
   * of that user fail as changed. `replace` and `linkIdentity` never write these attributes.
   */
  async recordFailedLogin(id: number): Promise<void> {
    await this.countLogin(id, 'SET loginAttempts = if_not_exists(loginAttempts, :zero) + :one', { ':zero': 0, ':one': 1 });
  }

  /** Sets the same values however often it lands, so it is sent again even after an unknown outcome. */
  async recordLogin(id: number, at: string): Promise<void> {
    await this.countLogin(id, 'SET loginAttempts = :zero, seenAt = :at', { ':zero': 0, ':at': at }, { idempotent: true });
  }

  /**
   * A user deleted meanwhile is left deleted: the condition keeps the update from recreating it.
   * A transaction on the user (another login linking its identity, an administrator's edit) makes
   * DynamoDB refuse this write while it commits: it is tried again, so a login is not refused for
   * another request's write of the same user (two tabs' first single sign-on logins at once).
   */
  private async countLogin(id: number, update: string, values: Record<string, unknown>, options: { idempotent?: boolean } = {}): Promise<void> {
    await retryWhileHeldByTransaction(() => conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: keys.user(id),
      UpdateExpression: update,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: values,
    }))), options);
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
/** An item as a read gives it back: the client leaves undefined attributes out (removeUndefinedValues). */
function asStored(item: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(item)) as Record<string, unknown>;
}

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

/**
 * The writes of a new password: the hash, and on the user `passwordVersion` moved (which ends
 * every session and reset link of the user) and `loginAttempts` back to 0. With
 * `expectedPasswordVersion`, only while the password is still that version (a reset link's).
 * Exported for the reset link store, which writes them in the transaction that uses the link.
 */
export function passwordWrite(tableName: string, id: number, passwordHash: string, at: string, expectedPasswordVersion?: number): TransactWriteItem[] {
  // A user whose password never changed has no passwordVersion: that is version 0.
  const stillThatVersion = expectedPasswordVersion === undefined
    ? ''
    : expectedPasswordVersion === 0
      ? ' AND (attribute_not_exists(passwordVersion) OR passwordVersion = :expected)'
      : ' AND passwordVersion = :expected';
  return [
    {
      Update: {
        TableName: tableName, Key: keys.user(id), ConditionExpression: `attribute_exists(pk)${stillThatVersion}`,
        UpdateExpression: 'SET loginAttempts = :zero, passwordVersion = if_not_exists(passwordVersion, :zero) + :one, version = version + :one',
        ExpressionAttributeValues: { ':zero': 0, ':one': 1, ...(expectedPasswordVersion === undefined ? {} : { ':expected': expectedPasswordVersion }) },
      },
    },
    { Put: { TableName: tableName, Item: passwordItem(id, passwordHash, at) } },
  ];
}

/** Attributes of the user item that `replace` leaves to the writes that own them. */
const NOT_REPLACED: ReadonlySet<string> = new Set(['pk', 'sk', 'id', 'version', 'loginAttempts', 'seenAt', 'passwordVersion']);

/** The update of `replace`: the details of `after` set, the ones it dropped removed, the version moved, on the version read. */
function detailsUpdate(before: User, after: User) {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':version': before.version, ':next': before.version + 1 };
  const sets = ['#version = :next'];
  const removes: string[] = [];
  const fields = new Set([...Object.keys(before), ...Object.keys(after)].filter((field) => !NOT_REPLACED.has(field)));
  [...fields].forEach((field, i) => {
    names[`#f${i}`] = field;
    const value = (after as unknown as Record<string, unknown>)[field];
    if (value === undefined) {
      removes.push(`#f${i}`);
    } else {
      values[`:f${i}`] = value;
      sets.push(`#f${i} = :f${i}`);
    }
  });
  return {
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: '#version = :version',
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

function passwordItem(id: number, passwordHash: string, at: string): Record<string, unknown> {
  return { ...keys.userPassword(id), passwordHash, updatedAt: at };
}
