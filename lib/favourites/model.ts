import { ValidationFailed } from '../errors.js';
import { isUserCaller, type Caller, type UserCaller } from '../http/caller.js';

/** What one person starred: flag names and project ids. */
export interface Favourites {
  features: ReadonlySet<string>;
  projects: ReadonlySet<string>;
}

export const NO_FAVOURITES: Favourites = { features: new Set(), projects: new Set() };

export type FavouriteKind = 'feature' | 'project';

/**
 * Favourites belong to a person. Unleash answers an API token's star with a 500 (the user id its
 * table needs is missing); here it is a 400 that says why.
 */
export function personOf(caller: Caller): UserCaller {
  if (!isUserCaller(caller)) throw new ValidationFailed('Favourites are kept per user: an API token is no user, so it has none');
  return caller;
}

/** The caller's favourites, none for an API token (which every answer shows as not starred). */
export const favouritesOwner = (caller: Caller): number | undefined => (isUserCaller(caller) ? caller.userId : undefined);
