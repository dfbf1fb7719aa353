import type { RootRoleId } from '../roles/model.js';

export interface GroupMember {
  userId: number;
  joinedAt: string;
  /** The API token's name that added the member. */
  createdBy: string;
}

export interface Group {
  id: number;
  name: string;
  description: string | null;
  mappingsSSO: string[];
  /** The root role every member gets through the group, if any. */
  rootRole: RootRoleId | null;
  createdAt: string;
  createdBy: string;
  /** Kept inside the group item, so a group and its memberships are written all or nothing. */
  members: GroupMember[];
  /** Optimistic concurrency: every write checks and increments it. */
  version: number;
}

export interface GroupDetails {
  name: string;
  description: string | null;
  mappingsSSO: string[];
  rootRole: RootRoleId | null;
}

/**
 * The new membership for an update: exactly the given user ids, in the order given. Members who
 * stay keep when they joined and who added them; new members join now, added by `by`.
 */
export function replaceMembers(current: GroupMember[], userIds: number[], now: string, by: string): GroupMember[] {
  const kept = new Map(current.map((member) => [member.userId, member]));
  return [...new Set(userIds)].map((userId) => kept.get(userId) ?? { userId, joinedAt: now, createdBy: by });
}

/** Members who were not in the group before: only their existence needs checking in the write. */
export function newMembers(before: GroupMember[], after: GroupMember[]): number[] {
  const existing = new Set(before.map((member) => member.userId));
  return after.map((member) => member.userId).filter((userId) => !existing.has(userId));
}
