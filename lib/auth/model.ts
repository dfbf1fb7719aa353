import { createHash, randomBytes } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { hashSecret } from '../tokens/model.js';

/**
 * A password reset link's token: single use, for one user, for a day (Unleash's lifetime), and
 * only while it is the user's newest link and their password has not changed since it was made.
 */
export interface ResetToken {
  /** sha256 of the secret in the link; the secret itself is never stored. */
  secretHash: string;
  userId: number;
  /** Who made the link: the admin's name, as Unleash records it. */
  createdBy: string;
  createdAt: string;
  /** Epoch ms; the item's TTL attribute holds it in seconds. */
  expiresAt: number;
  usedAt: string | null;
  /**
   * The user's passwordVersion when the link was made: any later password change (their own, an
   * admin's, another link's) ends the link.
   */
  passwordVersion: number;
}

export const RESET_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export function newResetSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString('base64url');
  return { secret, secretHash: resetSecretHash(secret) };
}

export const resetSecretHash = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** The page of the UI that takes a new password, as Unleash links it. */
export function resetPasswordUrl(unleashUrl: string, secret: string): string {
  return `${unleashUrl.replace(/\/+$/, '')}/reset-password?token=${secret}`;
}

/**
 * Failed password logins are counted per login name (as typed, without case or surrounding
 * spaces) and client address, never per account: a client that keeps failing waits, while the
 * right password from any other address goes in at once, so nobody can keep an account out of
 * password login by failing on purpose. Unknown login names are counted the same way, so the
 * answers never tell an existing user from an unknown one. After 10 failures in a row an
 * address waits a minute, and each failure after a wait doubles it, up to 15 minutes (Unleash
 * allows 10 password logins a minute per address). A count is forgotten a day after its last
 * try, or when the right password goes in from that address.
 */
export const LOGIN_FAILURES_BEFORE_WAIT = 10;
export const LOGIN_WAIT_MS = 60_000;
export const LOGIN_WAIT_CAP_MS = 15 * 60_000;
export const LOGIN_FAILURES_KEPT_MS = 24 * 60 * 60 * 1000;

/** The tries of one login name from one client address. */
export interface LoginFailures {
  /** Tries in a row that did not log in (a try is counted before its password is checked). */
  failures: number;
  /** Epoch ms before which the next try is refused. */
  notBefore: number;
  /** Epoch ms after which the count is forgotten; the item's TTL attribute holds it in seconds. */
  expiresAt: number;
}

const live = (failures: LoginFailures | undefined, now: Date): failures is LoginFailures =>
  failures !== undefined && failures.expiresAt > now.getTime();

/** How long the next try must wait, in ms; 0 when it may go ahead. */
export function loginWaitMs(failures: LoginFailures | undefined, now: Date): number {
  return live(failures, now) ? Math.max(0, failures.notBefore - now.getTime()) : 0;
}

/**
 * The count once one more try is under way. It is counted before the password is checked, so
 * tries sent at once are counted one by one and none slips past the wait; a try that logs in
 * then forgets the count.
 */
export function withOneMoreTry(failures: LoginFailures | undefined, now: Date): LoginFailures {
  const count = (live(failures, now) ? failures.failures : 0) + 1;
  const wait = count < LOGIN_FAILURES_BEFORE_WAIT
    ? 0
    : Math.min(LOGIN_WAIT_MS * 2 ** Math.min(count - LOGIN_FAILURES_BEFORE_WAIT, 30), LOGIN_WAIT_CAP_MS);
  const notBefore = now.getTime() + wait;
  return { failures: count, notBefore, expiresAt: notBefore + LOGIN_FAILURES_KEPT_MS };
}

/**
 * A login name as counted: without case or surrounding spaces, as users are found by it, and
 * hashed, so what people type into the name field (a password, sometimes) is never stored.
 */
export const loginNameKey = (login: string): string => hashSecret(login.trim().toLowerCase());

/**
 * The client address a count is kept for: an IPv4 address as is (an IPv4-mapped IPv6 address
 * as its IPv4 address), an IPv6 address as its /64 network, which one client usually holds
 * whole, so stepping through it gives no fresh count. The address is the router's
 * (lib/http/client-address.ts): API Gateway's, or the viewer's behind the admin UI's distribution.
 */
export function clientAddressOf(sourceIp: string | undefined): string {
  const address = (sourceIp ?? '').trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped) return mapped[1] as string;
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return 'unknown';
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.padStart(4, '0')).join(':')}::/64`;
}
