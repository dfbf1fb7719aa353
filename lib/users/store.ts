import type { User } from './model.js';

export type UserInsertOutcome = 'done' | 'email-taken' | 'username-taken' | 'signup-closed';
export type UserReplaceOutcome = 'done' | 'email-taken' | 'username-taken' | 'changed';

/**
 * The user store port; `dynamo-store.ts` beside it implements it on DynamoDB. Each write
 * records a change event naming `actor`, in the same transaction.
 */
export interface UserStore {
  /** A new id, never handed out before. */
  nextId(): Promise<number>;
  list(): Promise<User[]>;
  get(id: number): Promise<User | undefined>;
  /** The users of these ids that exist; unknown ids are left out. */
  getMany(ids: number[]): Promise<User[]>;
  /**
   * Writes a new user with its e-mail and username guards. For a user signing up with a
   * public signup token (`user.signupToken`), the same transaction checks that the token is
   * still enabled and unexpired at `now`: 'signup-closed' when it is not.
   */
  insert(user: User, now: string, actor: string): Promise<UserInsertOutcome>;
  /** Replaces `before` (as read) with `after`, moving guards whose value changed; 'changed' when `before` is stale or gone. */
  replace(before: User, after: User, actor: string): Promise<UserReplaceOutcome>;
  /**
   * Deletes `user` (as read), its guards, and its membership in the given groups, in one
   * transaction; 'changed' when the user or one of the groups changed meanwhile.
   */
  delete(user: User, groupIds: number[], actor: string): Promise<'done' | 'changed'>;
}
