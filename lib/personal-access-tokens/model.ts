import { randomBytes } from 'node:crypto';

/** Unleash's limit on personal access tokens per user (its PAT_LIMIT). */
export const PERSONAL_TOKEN_LIMIT = 10;

/** The longest description kept: Unleash sets none, and ten tokens must stay well inside one item. */
export const DESCRIPTION_MAX_LENGTH = 1000;

/**
 * How stale a token's `seenAt` may be before a request that uses it writes the time again: at
 * most one write a minute per token across every container, instead of one per request.
 */
export const SEEN_WRITE_INTERVAL_MS = 60_000;

/** What Unleash's personal access tokens start with; the edge tells them from API tokens by it. */
export const PERSONAL_TOKEN_PREFIX = 'user:';

/** A personal access token as listed: never its secret, of which only the hash is kept. */
export interface PersonalAccessToken {
  id: number;
  description: string;
  expiresAt: string;
  createdAt: string;
  /** The last request it authenticated, to the minute (SEEN_WRITE_INTERVAL_MS); null: never used. */
  seenAt: string | null;
  userId: number;
}

/** What is stored of a token besides what the list shows. */
export interface StoredPersonalToken extends Omit<PersonalAccessToken, 'seenAt'> {
  secretHash: string;
}

/** What authenticating with a secret reads: whose token it is and until when. */
export interface PersonalTokenGrant {
  userId: number;
  tokenId: number;
  expiresAt: string;
  seenAt: string | null;
}

/** Unleash's format: `user:` and 56 hex characters (28 random bytes). */
export function newPersonalTokenSecret(): string {
  return `${PERSONAL_TOKEN_PREFIX}${randomBytes(28).toString('hex')}`;
}

/** Whether a token has expired at `now`: Unleash refuses it from its expiry on. */
export function hasExpired(expiresAt: string, now: Date): boolean {
  return Date.parse(expiresAt) <= now.getTime();
}
