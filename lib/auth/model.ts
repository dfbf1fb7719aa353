import { createHash, randomBytes } from 'node:crypto';

/** A password reset link's token: single use, for one user, for a day (Unleash's lifetime). */
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
 * Unleash's limit for password logins is 10 a minute (SIMPLE_LOGIN_LIMIT_PER_MINUTE, answered
 * with 429). Here it holds per account: after 10 failures in a row, the next attempt waits a
 * minute from the last failure, and each failure after that starts the minute again. Counting
 * per account needs no per-address state, and a lock that ends by itself cannot be used to keep
 * someone out of their account for good.
 */
export const LOGIN_FAILURES_BEFORE_WAIT = 10;
export const LOGIN_WAIT_MS = 60_000;

/** How long a login must wait, in ms; 0 when it may go ahead. */
export function loginWaitMs(loginAttempts: number, lastFailedLoginAt: string | null, now: Date): number {
  if (loginAttempts < LOGIN_FAILURES_BEFORE_WAIT || lastFailedLoginAt === null) return 0;
  return Math.max(0, Date.parse(lastFailedLoginAt) + LOGIN_WAIT_MS - now.getTime());
}
