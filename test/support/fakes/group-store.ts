import { isDeepStrictEqual } from 'node:util';
import type { Group } from '../../../lib/groups/model.js';
import { SYNC_GROUPS_PER_WRITE, type GroupStore, type GroupWriteOutcome, type SyncOutcome } from '../../../lib/groups/store.js';
import { storedCopy } from './stored-copy.js';

/** Which users exist: a group's new members must name one. */
export interface KnownUsers {
  has(userId: number): boolean;
}

/**
 * GroupStore in memory; test/support/contracts/group-store.ts keeps it honest. As in
 * lib/groups/dynamo-store.ts a write checks, in its transaction's order, the group's version
 * (or, for an insert, that the id is free, or holds exactly the group sent again), then the
 * name guard, then each new member's user, and answers for the first check that fails; a sync of
 * more than SYNC_GROUPS_PER_WRITE groups is several such writes, leaves first. The change events
 * the adapter writes with each change are not kept here.
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
    const stored = this.groups.get(group.id);
    // As the adapter: a group under its id holding exactly this one is this insert's own, sent again.
    if (stored) return isDeepStrictEqual(asRead(stored), asRead(group)) ? { kind: 'done' } : { kind: 'changed' };
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

  /** As the adapter does: leaves before joins, SYNC_GROUPS_PER_WRITE groups a write, each whole and kept when a later one fails. */
  async syncMember(userId: number, join: readonly Group[], leave: readonly Group[], at: string, actor: string): Promise<SyncOutcome> {
    const changes = [...leave.map((group) => ({ group, joins: false })), ...join.map((group) => ({ group, joins: true }))];
    for (let from = 0; from < changes.length; from += SYNC_GROUPS_PER_WRITE) {
      const outcome = this.writeSync(userId, changes.slice(from, from + SYNC_GROUPS_PER_WRITE), at, actor);
      if (outcome !== 'done') return outcome;
    }
    return 'done';
  }

  private writeSync(userId: number, changes: Array<{ group: Group; joins: boolean }>, at: string, actor: string): SyncOutcome {
    const sameMappings = (read: Group, stored: Group | undefined) =>
      stored !== undefined && JSON.stringify(stored.mappingsSSO) === JSON.stringify(read.mappingsSSO);
    const isMember = (stored: Group | undefined) => stored?.members.some((member) => member.userId === userId) ?? false;
    for (const { group: read, joins } of changes) {
      const stored = this.groups.get(read.id);
      if (!sameMappings(read, stored) || isMember(stored) === joins) return 'changed';
    }
    if (changes.some(({ joins }) => joins) && !this.users.has(userId)) return 'unknown-user';
    for (const { group: { id }, joins } of changes) {
      const stored = this.groups.get(id)!;
      const members = joins ? [...stored.members, { userId, joinedAt: at, createdBy: actor }] : stored.members.filter((member) => member.userId !== userId);
      this.groups.set(id, { ...stored, members, version: stored.version + 1 });
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
