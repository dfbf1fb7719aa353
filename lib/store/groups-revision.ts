import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { retryWhileHeldByTransaction } from './dynamo-errors.js';
import { KEY, keys } from './table-design.js';
import type { TransactWriteItem } from './transact.js';

/*
 * The groups' revision (docs/adr/0027-groups-revision.md): one small item that every transaction
 * writing a group item moves, so a container that read the groups at a revision knows, from one
 * strongly consistent read of this item beside the session, whether they may have changed since.
 * Here, not in lib/groups/, because the users' store writes group items too (a deleted user leaves
 * their groups) and lib/groups/ already depends on lib/users/.
 *
 * One item, not shards as the SDK revision has: groups change by an administrator's hand or a
 * single sign-on login's group sync, far from the rate at which transactions on one item would
 * keep cancelling each other (transactWriteDetailed tries a cancelled one again).
 */

/**
 * The revision as read: its value, from when (epoch ms) every writer of groups moves it, and when
 * (epoch ms, the writer's clock) the transaction that last moved it was built; absent while no
 * transaction has moved it (a fresh table's item, or one `ensureGroupsRevision` made).
 */
export interface GroupsRevision {
  value: number;
  since: number;
  movedAt?: number;
}

/**
 * How long after the item appeared it is trusted: a writer running the code from before it
 * (during the deployment that brings it) may commit a group change without moving it for as long
 * as its request runs. The same wait as the written event counters' (ADR 26).
 */
export const GROUPS_REVISION_SETTLE_MS = 5 * 60_000;

/**
 * How long after a move a Query of the groups may still miss it. DynamoDB's Query is only
 * read-committed: while the transaction that moved the revision commits, a Query may already see
 * the revision item moved (read strongly consistent beside the session) and still a group item
 * from before that same transaction. Such a read serves the request that made it, as a read of the
 * groups on every request did, but is not kept under the moved revision. `movedAt` is stamped when
 * the transaction is built, before it is sent, so the window covers the transaction's tries
 * (`transactWriteDetailed` tries a cancelled one again within some hundred milliseconds) and its
 * commit (milliseconds), and the clock skew between two containers (Lambda's clocks are kept in
 * sync to well under a second).
 */
export const GROUPS_REVISION_MOVE_SETTLE_MS = 2_000;

/** Whether a reader may keep what it read at this revision until the revision moves. */
export const isTrusted = (revision: GroupsRevision, now: number): boolean => now - revision.since >= GROUPS_REVISION_SETTLE_MS;

/** Whether a read of the groups that started at `startedAt` (epoch ms) may be kept under `revision`. */
export const isKeepableRead = (revision: GroupsRevision, startedAt: number): boolean =>
  revision.movedAt === undefined || startedAt - revision.movedAt >= GROUPS_REVISION_MOVE_SETTLE_MS;

/**
 * The item every transaction that writes a group item adds: the revision moves in the same commit
 * as the change, stamped with when it moved. On a table from before the item, the first such write
 * creates it and starts its wait. Build it just before sending the transaction: the stamp is meant
 * to be no earlier than needed (GROUPS_REVISION_MOVE_SETTLE_MS).
 */
export function moveGroupsRevision(tableName: string, now = Date.now()): TransactWriteItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.groupsRevision(),
      UpdateExpression: 'ADD revision :one SET since = if_not_exists(since, :now), movedAt = :now',
      ExpressionAttributeValues: { ':one': 1, ':now': now },
    },
  };
}

/**
 * When a transaction's items move the groups' revision, moves it once more, stamped now, in the
 * same table: for a transaction that succeeded only after an attempt whose outcome was unknown, so it may have committed
 * later than GROUPS_REVISION_MOVE_SETTLE_MS after its own stamp (transact.ts).
 */
export async function moveGroupsRevisionAgain(db: DynamoDBDocumentClient, items: TransactWriteItem[], now = Date.now()): Promise<void> {
  const revision = keys.groupsRevision();
  const move = items.find((item) => item.Update?.Key?.[KEY.partition] === revision[KEY.partition] && item.Update?.Key?.[KEY.sort] === revision[KEY.sort]);
  if (!move?.Update) return;
  await db.send(new UpdateCommand({
    TableName: move.Update.TableName,
    Key: revision,
    UpdateExpression: 'ADD revision :one SET since = if_not_exists(since, :now), movedAt = :now',
    ExpressionAttributeValues: { ':one': 1, ':now': now },
  }));
}

/**
 * The item a fresh table starts with (written with the first start's data): no code from before
 * the revision has ever written that table's groups, so it is trusted at once.
 */
export const freshTableGroupsRevisionItem = (): Record<string, unknown> => ({ ...keys.groupsRevision(), revision: 0, since: 0 });

/**
 * Creates the item on a table from before it, leaving an existing one as it is; readers trust it
 * from GROUPS_REVISION_SETTLE_MS on. Until it exists they read the groups on every request.
 */
export async function ensureGroupsRevision(db: DynamoDBDocumentClient, tableName: string, now = Date.now()): Promise<void> {
  // Processes starting at once meet each other's first-start transactions on this item, and a
  // single-item write refused that way is not retried by the SDK; this one sets only what is
  // absent, so sending it again changes nothing that landed.
  await retryWhileHeldByTransaction(() => db.send(new UpdateCommand({
    TableName: tableName,
    Key: keys.groupsRevision(),
    UpdateExpression: 'SET revision = if_not_exists(revision, :zero), since = if_not_exists(since, :now)',
    ExpressionAttributeValues: { ':zero': 0, ':now': now },
  })), { idempotent: true });
}

/** The revision an item read by its key holds; undefined when the table has none yet. */
export function groupsRevisionOf(item: Record<string, unknown> | undefined): GroupsRevision | undefined {
  if (!item || typeof item.revision !== 'number' || typeof item.since !== 'number') return undefined;
  return { value: item.revision, since: item.since, ...(typeof item.movedAt === 'number' ? { movedAt: item.movedAt } : {}) };
}
