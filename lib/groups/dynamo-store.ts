import { isDeepStrictEqual } from 'node:util';
import { DynamoGroupReader, type StoredMembers } from './dynamo-reader.js';
import type { Group } from './model.js';
import { SYNC_GROUPS_PER_WRITE, type GroupStore, type GroupWriteOutcome, type SyncOutcome } from './store.js';
import { isUnresolvedTransactionConflict } from '../store/dynamo-errors.js';
import { nextCounterValue } from '../store/counter.js';
import { moveGroupsRevision } from '../store/groups-revision.js';
import { keys } from '../store/table-design.js';
import { changeEvent } from '../events/model.js';
import { eventItem } from '../events/dynamo-store.js';
import { transactWriteDetailed, type TransactOptions, type TransactWriteItem } from '../store/transact.js';
import { claimGuard, moveGuard, releaseGuard } from '../store/unique-guard.js';

/**
 * A group item holds its memberships as a map keyed by user id, so the group and its members
 * are one item: one conditional write changes both, and a user's deletion removes one map
 * entry. The name is held by a guard item written in the same transaction; each new member is
 * a ConditionCheck on the user's item, so a member can never name a user that does not exist.
 * Every transaction that writes a group item moves the groups' revision too, which sessions read
 * to know whether the root roles they keep are still the groups' (docs/adr/0027-groups-revision.md).
 */
export class DynamoGroupStore extends DynamoGroupReader implements GroupStore {
  nextId(): Promise<number> {
    return nextCounterValue(this.db, this.tableName, 'group');
  }

  async insert(group: Group, actor: string): Promise<GroupWriteOutcome> {
    const items: TransactWriteItem[] = [
      { Put: { TableName: this.tableName, Item: groupItem(group), ConditionExpression: 'attribute_not_exists(pk)' } },
      claimGuard(this.tableName, keys.groupName(group.name), group.id),
      this.event('group-created', group, actor),
      moveGroupsRevision(this.tableName),
    ];
    // An earlier attempt whose answer was lost (a timeout) may have committed: transact.ts lets
    // this store tell, as the group item does. The id is drawn for this group alone, so an item
    // under it holding exactly this group is this write's own; any other failure comes with the
    // group item absent, so none of this write was applied and the failure is the answer.
    const outcome = await this.write(items, group.members.map((member) => member.userId), { verifiesUnknownOutcome: true });
    if (outcome.kind === 'changed' && sameGroup(await this.get(group.id), group)) return { kind: 'done' };
    return outcome;
  }

  async replace(before: Group, after: Group, addedUserIds: number[], actor: string): Promise<GroupWriteOutcome> {
    const items: TransactWriteItem[] = [
      {
        Put: {
          TableName: this.tableName,
          Item: groupItem({ ...after, version: before.version + 1 }),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before.version },
        },
      },
      ...moveGuard(this.tableName, keys.groupName(before.name), keys.groupName(after.name), before.id),
      this.event('group-updated', after, actor),
      moveGroupsRevision(this.tableName),
    ];
    return this.write(items, addedUserIds);
  }

  /**
   * Each group's change is an update of the person's own entry in its members map, conditioned on
   * the mappings read and the entry's absence (or presence), with the version moved; the user's
   * existence is checked for a join, and the revision moves once per write. At most
   * SYNC_GROUPS_PER_WRITE groups per transaction: a person in more mapped groups is synced in
   * several writes, each whole, leaves first. A later write that fails (its groups changed, or a
   * 503 once its time or tries ran out) leaves the earlier ones done, for the caller's next read
   * (or the person's next login) to go on from; as leaves come first, what is left undone can
   * only be joins, so a partial sync never gives the person roles of a group they were to leave.
   */
  async syncMember(userId: number, join: readonly Group[], leave: readonly Group[], at: string, actor: string): Promise<SyncOutcome> {
    const changes = [...leave.map((group) => ({ group, joins: false })), ...join.map((group) => ({ group, joins: true }))];
    for (let from = 0; from < changes.length; from += SYNC_GROUPS_PER_WRITE) {
      const outcome = await this.writeSync(userId, changes.slice(from, from + SYNC_GROUPS_PER_WRITE), at, actor);
      if (outcome !== 'done') return outcome;
    }
    return 'done';
  }

  /**
   * One sync write. Every login of a crowd joining the same group writes that group's item and the
   * revision: DynamoDB cancels the ones that overlap, and transact.ts tries each again a few times
   * within some hundred milliseconds. Such a burst can outlast those tries without anything being
   * wrong with the write (it adds one entry, whatever the others add), so the write is sent again,
   * its revision move stamped afresh, up to SYNC_CONFLICT_ROUNDS times, after a random pause that
   * grows with the round (a crowd restarting together would only cancel itself again); the
   * late-write guard still refuses an attempt the request has no time left for.
   */
  private async writeSync(userId: number, changes: Array<{ group: Group; joins: boolean }>, at: string, actor: string): Promise<SyncOutcome> {
    const member = String(userId);
    const groupItems: TransactWriteItem[] = changes.flatMap(({ group, joins }) => [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.group(group.id),
          UpdateExpression: joins ? 'SET members.#member = :member, version = version + :one' : 'REMOVE members.#member SET version = version + :one',
          ConditionExpression: `attribute_exists(pk) AND mappingsSSO = :mappings AND ${joins ? 'attribute_not_exists' : 'attribute_exists'}(members.#member)`,
          ExpressionAttributeNames: { '#member': member },
          ExpressionAttributeValues: { ':one': 1, ':mappings': group.mappingsSSO, ...(joins ? { ':member': { joinedAt: at, createdBy: actor } } : {}) },
        },
      },
      eventItem(this.tableName, changeEvent('group-updated', { changes: [`group:${group.id}`, `${joins ? 'joined' : 'left'}:user:${userId}`] }, actor)),
    ]);
    const userCheck = changes.some(({ joins }) => joins) ? [this.userExists(userId)] : [];
    for (let round = 1; ; round += 1) {
      try {
        const outcome = await transactWriteDetailed(this.db, [...groupItems, ...userCheck, moveGroupsRevision(this.tableName)]);
        if (outcome.ok) return 'done';
        return outcome.failedIndex === groupItems.length && userCheck.length > 0 ? 'unknown-user' : 'changed';
      } catch (error) {
        if (!isUnresolvedTransactionConflict(error) || round >= SYNC_CONFLICT_ROUNDS) throw error;
        // Spread the crowd's next tries out rather than all starting again from transact.ts's shortest wait.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * SYNC_ROUND_SPREAD_MS * round));
      }
    }
  }

  async delete(group: Group, actor: string): Promise<'done' | 'changed'> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.group(group.id),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': group.version },
        },
      },
      releaseGuard(this.tableName, keys.groupName(group.name), group.id),
      this.event('group-deleted', group, actor),
      moveGroupsRevision(this.tableName),
    ]);
    return outcome.ok ? 'done' : 'changed';
  }

  /** Access changes are recorded in the transactions that make them. */
  private event(type: string, group: Group, actor: string): TransactWriteItem {
    return eventItem(this.tableName, changeEvent(type, { changes: [`group:${group.id}`, `members:${group.members.length}`] }, actor));
  }

  /**
   * Writes the group's items plus one existence check per user id, and tells from the failed
   * item what went wrong: the group itself, the name guard, or a member's user.
   */
  private async write(items: TransactWriteItem[], checkedUserIds: number[], options: TransactOptions = {}): Promise<GroupWriteOutcome> {
    const outcome = await transactWriteDetailed(this.db, [...items, ...checkedUserIds.map((id) => this.userExists(id))], options);
    if (outcome.ok) return { kind: 'done' };
    if (outcome.failedIndex >= items.length) {
      return { kind: 'unknown-user', userId: checkedUserIds[outcome.failedIndex - items.length] as number };
    }
    if (items[outcome.failedIndex]?.Put?.Item?.pk === keys.groupName('').pk) return { kind: 'name-taken' };
    return { kind: 'changed' };
  }

  private userExists(userId: number): TransactWriteItem {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: keys.user(userId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    };
  }
}

/** How often a sync write still cancelled by concurrent ones after transact.ts's tries is sent again. */
const SYNC_CONFLICT_ROUNDS = 8;
/** The longest pause before a sync write's next round, times the round: about a transaction's hold time per login ahead. */
const SYNC_ROUND_SPREAD_MS = 100;

/** Whether `read` (a consistent read) holds `written` exactly, its members in any order. */
function sameGroup(read: Group | undefined, written: Group): boolean {
  const comparable = (group: Group) => ({ ...group, members: [...group.members].sort((a, b) => a.userId - b.userId) });
  return read !== undefined && isDeepStrictEqual(comparable(read), comparable(written));
}

function groupItem(group: Group): Record<string, unknown> {
  const { members, ...details } = group;
  const stored: StoredMembers = Object.fromEntries(
    members.map((member) => [String(member.userId), { joinedAt: member.joinedAt, createdBy: member.createdBy }]),
  );
  return { ...keys.group(group.id), ...details, members: stored };
}
