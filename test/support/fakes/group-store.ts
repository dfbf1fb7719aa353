import type { Group } from '../../../lib/groups/model.js';
import type { GroupStore, GroupWriteOutcome, SyncOutcome } from '../../../lib/groups/store.js';
import { storedCopy } from './stored-copy.js';

/** Which users exist: a group's new members must name one. */
export interface KnownUsers {
  has(userId: number): boolean;
}

/**
 * GroupStore in memory; test/support/contracts/group-store.ts keeps it honest. As in
 * lib/groups/dynamo-store.ts a write checks, in its transaction's order, the group's version
 * (or, for an insert, that the id is free), then the name guard, then each new member's user,
 * and answers for the first check that fails. The change events the adapter writes with each
 * change are not kept here.
 */
export class FakeGroupStore implements GroupStore {
  private readonly groups = new Map<number, Group>();
  /** Name to the id of the group holding it. */
  private readonly names = new Map<string, number>();
  private lastId = 0;

  constructor(private readonly users: KnownUsers) {}

  async nextId(): Promise<number> {
    this.lastId += 1;
    return this.lastId;
  }

  async list(): Promise<Group[]> {
    return [...this.groups.keys()].sort((a, b) => a - b).map((id) => asRead(this.groups.get(id)!));
  }

  async get(id: number): Promise<Group | undefined> {
    const group = this.groups.get(id);
    return group === undefined ? undefined : asRead(group);
  }

  async insert(group: Group, _actor: string): Promise<GroupWriteOutcome> {
    if (this.groups.has(group.id)) return { kind: 'changed' };
    if (this.names.has(group.name)) return { kind: 'name-taken' };
    const unknown = this.firstUnknown(group.members.map((member) => member.userId));
    if (unknown !== undefined) return { kind: 'unknown-user', userId: unknown };
    this.groups.set(group.id, storedCopy(group));
    this.names.set(group.name, group.id);
    return { kind: 'done' };
  }

  async replace(before: Group, after: Group, addedUserIds: number[], _actor: string): Promise<GroupWriteOutcome> {
    if (this.groups.get(before.id)?.version !== before.version) return { kind: 'changed' };
    const renamed = before.name !== after.name;
    if (renamed && this.names.get(before.name) !== before.id) return { kind: 'changed' };
    if (renamed && this.names.has(after.name)) return { kind: 'name-taken' };
    const unknown = this.firstUnknown(addedUserIds);
    if (unknown !== undefined) return { kind: 'unknown-user', userId: unknown };
    this.groups.set(after.id, storedCopy({ ...after, version: before.version + 1 }));
    if (renamed) {
      this.names.delete(before.name);
      this.names.set(after.name, before.id);
    }
    return { kind: 'done' };
  }

  async syncMember(userId: number, join: readonly Group[], leave: readonly Group[], at: string, actor: string): Promise<SyncOutcome> {
    const sameMappings = (read: Group, stored: Group | undefined) =>
      stored !== undefined && JSON.stringify(stored.mappingsSSO) === JSON.stringify(read.mappingsSSO);
    const isMember = (stored: Group | undefined) => stored?.members.some((member) => member.userId === userId) ?? false;
    for (const read of join) if (!sameMappings(read, this.groups.get(read.id)) || isMember(this.groups.get(read.id))) return 'changed';
    for (const read of leave) if (!sameMappings(read, this.groups.get(read.id)) || !isMember(this.groups.get(read.id))) return 'changed';
    if (join.length > 0 && !this.users.has(userId)) return 'unknown-user';
    for (const { id } of join) {
      const stored = this.groups.get(id)!;
      this.groups.set(id, { ...stored, members: [...stored.members, { userId, joinedAt: at, createdBy: actor }], version: stored.version + 1 });
    }
    for (const { id } of leave) {
      const stored = this.groups.get(id)!;
      this.groups.set(id, { ...stored, members: stored.members.filter((member) => member.userId !== userId), version: stored.version + 1 });
    }
    return 'done';
  }

  async delete(group: Group, _actor: string): Promise<'done' | 'changed'> {
    if (this.groups.get(group.id)?.version !== group.version || this.names.get(group.name) !== group.id) return 'changed';
    this.groups.delete(group.id);
    this.names.delete(group.name);
    return 'done';
  }

  private firstUnknown(userIds: number[]): number | undefined {
    return userIds.find((userId) => !this.users.has(userId));
  }
}

/** Members as the adapter reads them from its map: one per user, in the order they joined (ties by user id). */
function asRead(group: Group): Group {
  const copy = storedCopy(group);
  const members = [...new Map(copy.members.map((member) => [member.userId, member])).values()];
  return { ...copy, members: members.sort((a, b) => a.joinedAt.localeCompare(b.joinedAt) || a.userId - b.userId) };
}
