import { DynamoGroupReader, type StoredMembers } from './dynamo-reader.js';
import type { Group } from './model.js';
import type { GroupStore, GroupWriteOutcome } from './store.js';
import { nextCounterValue } from '../store/counter.js';
import { moveGroupsRevision } from '../store/groups-revision.js';
import { keys } from '../store/table-design.js';
import { changeEvent } from '../events/model.js';
import { eventItem } from '../events/dynamo-store.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';
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
    return this.write(items, group.members.map((member) => member.userId));
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
  private async write(items: TransactWriteItem[], checkedUserIds: number[]): Promise<GroupWriteOutcome> {
    const outcome = await transactWriteDetailed(this.db, [...items, ...checkedUserIds.map((id) => this.userExists(id))]);
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

function groupItem(group: Group): Record<string, unknown> {
  const { members, ...details } = group;
  const stored: StoredMembers = Object.fromEntries(
    members.map((member) => [String(member.userId), { joinedAt: member.joinedAt, createdBy: member.createdBy }]),
  );
  return { ...keys.group(group.id), ...details, members: stored };
}
