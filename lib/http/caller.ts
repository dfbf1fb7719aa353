import type { RootRoleId } from '../roles/model.js';

/*
 * Who calls, as the edge knows them: an API token's caller (lib/tokens) or a person behind a
 * session cookie (lib/sessions). Both implement these types; the edge imports neither.
 */

/** Who is calling, as the access checks and the SDK scope need it. */
export interface Caller {
  tokenName: string;
  type: 'client' | 'backend' | 'frontend' | 'admin';
  environment: string;
  projects: string[];
}

/**
 * A person calling with a session cookie. It is a `Caller` like a token's, so every operation
 * records them as the actor by name (`tokenName`: their username or e-mail, as Unleash records
 * people); `rootRole` is the strongest of their own and their groups' root roles, read on each
 * request, so a changed role holds at once.
 */
export interface UserCaller extends Caller {
  userId: number;
  rootRole: RootRoleId;
}

export const isUserCaller = (caller: Caller | undefined): caller is UserCaller =>
  caller !== undefined && 'userId' in caller;

/** A request's caller, and the revision its token was checked against when one was read. */
export interface Authentication {
  caller: Caller;
  /** The SDK path answers at this revision instead of reading the revision item a second time. */
  revision: number | undefined;
}
