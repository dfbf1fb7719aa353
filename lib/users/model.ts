import { createHash } from 'node:crypto';
import type { RootRoleId } from '../roles/model.js';

/**
 * A user as stored. The password hash is kept in an item of its own (UserStore.credentials),
 * never in this one, so no answer built from a user can carry it.
 */
export interface User {
  id: number;
  name: string | null;
  /** Kept in lower case, as Unleash keeps it: e-mail addresses are unique whatever their case. */
  email: string | null;
  username: string | null;
  rootRole: RootRoleId;
  createdAt: string;
  /** The API token's name that created the user. */
  createdBy: string;
  /** The last login. */
  seenAt: string | null;
  /** Failed logins since the last one that succeeded. */
  loginAttempts: number;
  /** The public signup token the user signed up with, if any. */
  signupToken: string | null;
  /** Optimistic concurrency: every write checks and increments it. */
  version: number;
  /**
   * Counts the password's changes (absent: never changed). A session holds the count of its login,
   * and ends when it moves (lib/sessions/service.ts): written in the password's own transaction,
   * ending the sessions reads and deletes nothing.
   */
  passwordVersion?: number;
  /**
   * Who vouched that the e-mail belongs to this person: an administrator ('admin': they created
   * the user or set the address), or the identity provider at the single sign-on login that
   * created the user ('sso'); null when only the person who typed it says so (an invite signup).
   * Absent on users stored before it was kept: see `emailVouched`.
   */
  emailVerifiedBy?: EmailVoucher | null;
  /**
   * The single sign-on identities linked to this account (absent: none). A login through a
   * provider finds the account by these alone (`UserStore.idOfIdentity`), never by e-mail.
   */
  ssoIdentities?: SsoIdentity[];
}

export type EmailVoucher = 'admin' | 'sso';

/** An identity at an OpenID provider: the verified ID token's `iss` and `sub`, which together never change hands. */
export interface SsoIdentity {
  issuer: string;
  subject: string;
}

/**
 * Whether someone other than the person who typed the e-mail vouched for it. A user stored before
 * this was kept counts as vouched only when it came through no invite link: such users were made
 * by an administrator, the first start or a single sign-on login, while an invite signup is the
 * one way a person chose their own address without proof.
 */
export function emailVouched(user: Pick<User, 'emailVerifiedBy' | 'signupToken'>): boolean {
  if (user.emailVerifiedBy === undefined) return user.signupToken === null;
  return user.emailVerifiedBy !== null;
}

/** The fixed-length digest an identity is keyed by: issuer and subject are any text, `#` and all. */
export function identityHash(identity: SsoIdentity): string {
  return createHash('sha256').update(JSON.stringify([identity.issuer, identity.subject])).digest('hex');
}

export const sameIdentity = (a: SsoIdentity, b: SsoIdentity): boolean => a.issuer === b.issuer && a.subject === b.subject;

/** The details a user is created or updated with. */
export interface UserDetails {
  name: string | null;
  email: string | null;
  username: string | null;
  rootRole: RootRoleId;
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * The keys that make a user unique. Usernames are compared without case too, so `Admin` cannot
 * pass for `admin`; the username itself is kept as written.
 */
export function uniqueKeysOf(user: Pick<User, 'email' | 'username'>): { email: string | null; username: string | null } {
  return { email: user.email, username: user.username === null ? null : user.username.toLowerCase() };
}

/** Unleash's avatar: a Gravatar URL from the SHA-256 of the e-mail, else of the username or id. */
export function imageUrlOf(user: Pick<User, 'id' | 'email' | 'username'>): string {
  const identity = (user.email ?? user.username ?? String(user.id)).trim().toLowerCase();
  const hash = createHash('sha256').update(identity).digest('hex');
  return `https://gravatar.com/avatar/${hash}?s=42&d=retro&r=g`;
}

export interface UserInput {
  name?: string | null | undefined;
  email?: string | null | undefined;
  username?: string | null | undefined;
  rootRole: number | string;
  /** Only when the user is created; kept as a hash and never answered. */
  password?: string | null | undefined;
  /**
   * An administrator's word on the e-mail (updates only): true vouches for it as it stands, false
   * withdraws that. Left out, a changed e-mail is vouched for by the administrator who set it.
   */
  emailVerified?: boolean | undefined;
}

/** The public signup link of a token; a user who signed up with it carries it as `inviteLink`. */
export function signupUrl(unleashUrl: string, secret: string): string {
  return `${unleashUrl.replace(/\/+$/, '')}/new-user?invite=${secret}`;
}
