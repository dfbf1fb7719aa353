import type { Group } from './model.js';

export type GroupWriteOutcome =
  | { kind: 'done' }
  | { kind: 'name-taken' }
  /** A new member's user does not exist (any more). */
  | { kind: 'unknown-user'; userId: number }
  /** The group changed or disappeared since it was read. */
  | { kind: 'changed' };

/**
 * The group store port; `dynamo-store.ts` beside it implements it on DynamoDB. Each write
 * records a change event naming `actor`, in the same transaction.
 */
export interface GroupStore {
  nextId(): Promise<number>;
  list(): Promise<Group[]>;
  get(id: number): Promise<Group | undefined>;
  /**
   * Writes a new group, its name guard and its members in one transaction that also checks
   * every member's user exists.
   */
  insert(group: Group, actor: string): Promise<GroupWriteOutcome>;
  /**
   * Replaces `before` (as read) with `after` in one transaction: moves the name guard when the
   * name changed and checks that each user in `addedUserIds` exists.
   */
  replace(before: Group, after: Group, addedUserIds: number[], actor: string): Promise<GroupWriteOutcome>;
  /** Deletes `group` (as read) and its name guard; 'changed' when it changed or is gone. */
  delete(group: Group, actor: string): Promise<'done' | 'changed'>;
}
