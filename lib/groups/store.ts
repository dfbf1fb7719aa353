import type { Group } from './model.js';

export type GroupWriteOutcome =
  | { kind: 'done' }
  | { kind: 'name-taken' }
  /** A new member's user does not exist (any more). */
  | { kind: 'unknown-user'; userId: number }
  /** The group changed or disappeared since it was read. */
  | { kind: 'changed' };

export type SyncOutcome = 'done' | 'changed' | 'unknown-user';

/**
 * Groups one sync write changes at most: two items each (the group and its change event), with
 * the user check, the revision and the event counter well inside DynamoDB's 100 per transaction.
 */
export const SYNC_GROUPS_PER_WRITE = 40;

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
   * every member's user exists. An insert whose group item is found already holding exactly
   * `group` answers 'done': ids are drawn for one group each, so that item is this insert's own,
   * written by an attempt whose answer was lost (a resend after a timeout finds it).
   */
  insert(group: Group, actor: string): Promise<GroupWriteOutcome>;
  /**
   * Replaces `before` (as read) with `after` in one transaction: moves the name guard when the
   * name changed and checks that each user in `addedUserIds` exists.
   */
  replace(before: Group, after: Group, addedUserIds: number[], actor: string): Promise<GroupWriteOutcome>;
  /**
   * A single sign-on login's sync of one person: they leave each group of `leave` and join each
   * of `join` (joining at `at`, added by `actor`), each group only while its SSO mappings are
   * still those read and the person is not yet (still) a member. Nothing else of the group is
   * compared, so logins syncing different people into the same group at once do not undo one
   * another's reads, as replacing the whole group would; each group's version still moves, so an
   * administrator's replace computed before it is retried. 'changed' when a group is gone or no
   * longer as read (read again and decide again), 'unknown-user' when the person is not a user
   * (any more). Up to SYNC_GROUPS_PER_WRITE groups are one write, all or nothing; more are
   * written SYNC_GROUPS_PER_WRITE at a time, leaves before joins, each write committed before the
   * next is sent: a write that fails (an outcome other than 'done', or an error) leaves the
   * earlier ones done, so a person can be left with fewer of their groups' roles than the sync
   * would give them, never with more (a group joined while one to leave is still theirs).
   */
  syncMember(userId: number, join: readonly Group[], leave: readonly Group[], at: string, actor: string): Promise<SyncOutcome>;
  /** Deletes `group` (as read) and its name guard; 'changed' when it changed or is gone. */
  delete(group: Group, actor: string): Promise<'done' | 'changed'>;
}
