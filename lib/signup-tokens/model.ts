import { randomBytes } from 'node:crypto';
import type { RootRoleId } from '../roles/model.js';

/** A public signup token: a link through which people can create their own user. */
export interface SignupToken {
  /** The random value in the link; it names the token in the API too, as in Unleash. */
  secret: string;
  name: string;
  /** As stored; it reads false once the token has expired (`isOpen`). */
  enabled: boolean;
  expiresAt: string;
  createdAt: string;
  createdBy: string;
  /** The root role of users who sign up with it: always Viewer when created, as in Unleash. */
  roleId: RootRoleId;
}

export const newSecret = (): string => randomBytes(16).toString('hex');

/** A token lets people sign up while it is enabled and unexpired; expiry wins over what is stored. */
export function isOpen(token: Pick<SignupToken, 'enabled' | 'expiresAt'>, now: Date): boolean {
  return token.enabled && Date.parse(token.expiresAt) > now.getTime();
}

/** Unleash caps a new token's lifetime at one month from its creation. */
export function cappedExpiry(requested: Date, now: Date): Date {
  const limit = oneMonthAfter(now);
  return requested.getTime() > limit.getTime() ? limit : requested;
}

/** The same day next month, or that month's last day when it is shorter (31 January → 28 February). */
function oneMonthAfter(date: Date): Date {
  const limit = new Date(date);
  limit.setUTCDate(1);
  limit.setUTCMonth(limit.getUTCMonth() + 1);
  const lastDay = new Date(Date.UTC(limit.getUTCFullYear(), limit.getUTCMonth() + 1, 0)).getUTCDate();
  limit.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return limit;
}

// A token's public signup link is what its users carry as `inviteLink` (lib/users/model.ts).
export { signupUrl } from '../users/model.js';
