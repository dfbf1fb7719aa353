import type { SsoIdentity, User } from './model.js';

export type UserInsertOutcome = 'done' | 'email-taken' | 'username-taken' | 'identity-taken' | 'signup-closed';
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
   * still enabled and unexpired at `now`: 'signup-closed' when it is not. A password hash, when
   * given, is written in the same transaction, and so is the guard of each SSO identity the user
   * is created with ('identity-taken' when another user holds one).
   */
  insert(user: User, now: string, actor: string, passwordHash?: string): Promise<UserInsertOutcome>;
  /** Replaces `before` (as read) with `after`, moving guards whose value changed; 'changed' when `before` is stale or gone. */
  replace(before: User, after: User, actor: string): Promise<UserReplaceOutcome>;
  /**
   * Links `identity` to `before` (as read): the user's list and the identity's guard in one
   * transaction. 'changed' when `before` is stale or gone, 'identity-taken' when the identity is
   * linked to a user already.
   */
  linkIdentity(before: User, identity: SsoIdentity, actor: string): Promise<'done' | 'changed' | 'identity-taken'>;
  /**
   * Deletes `user` (as read), its guards, and its membership in the given groups, in one
   * transaction; 'changed' when the user or one of the groups changed meanwhile.
   */
  delete(user: User, groupIds: number[], actor: string): Promise<'done' | 'changed'>;

  /** The id of the user with this e-mail (given in lower case) or username (lower case), from its guard item. */
  idOfLogin(kind: 'email' | 'username', value: string): Promise<number | undefined>;
  /** The id of the user this SSO identity is linked to, from its guard item. */
  idOfIdentity(identity: SsoIdentity): Promise<number | undefined>;
  /** The user's password hash; undefined for a user without a password. */
  credentials(id: number): Promise<Credentials | undefined>;
  /** Sets the user's password hash, while the user exists. */
  setPassword(id: number, passwordHash: string, at: string): Promise<'done' | 'gone'>;
  /**
   * A failed login: counts `loginAttempts` on the user. Like `recordLogin`, it leaves the user's
   * version alone: a stranger's wrong password must not make an edit of the user fail as changed.
   */
  recordFailedLogin(id: number): Promise<void>;
  /** A login: `loginAttempts` back to 0, `seenAt` now. */
  recordLogin(id: number, at: string): Promise<void>;
}

/** A password as stored: in an item of its own, so no read of users ever carries the hash. */
export interface Credentials {
  passwordHash: string;
}
