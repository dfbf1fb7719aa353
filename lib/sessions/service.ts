import type { Permission, RootRoleId } from '../roles/model.js';
import { roleGrants, strongestRole } from '../roles/permissions.js';
import type { GroupsRevision } from '../store/groups-revision.js';
import type { User } from '../users/model.js';
import {
  clearedSessionCookie,
  cookieValue,
  newSessionValue,
  parseSessionValue,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  sessionCookie,
  type Session,
  type SessionSettings,
  type UserCaller,
} from './model.js';
import type { SessionStore } from './store.js';
import type { LoginDetails } from '../errors.js';

export { groupRootRolesOf } from './group-roles.js';

/**
 * What sessions need of users: the user a session stands for, and the root roles of their groups.
 * Each read of a user carries the groups' revision, read in the same strongly consistent request.
 */
export interface SessionUsers {
  /** A stored session (ended or not), the user it names and the groups' revision, in one request. */
  sessionAndUser(userId: number, secretHash: string): Promise<{ session: Session | undefined; user: User | undefined; groupsRevision: GroupsRevision | undefined }>;
  /** A user and the groups' revision, in one request. */
  userAndGroupsRevision(id: number): Promise<{ user: User | undefined; groupsRevision: GroupsRevision | undefined }>;
  /** The root roles the user holds through groups, as of that revision or later (lib/sessions/group-roles.ts). */
  groupRootRolesOf(userId: number, groupsRevision: GroupsRevision | undefined): Promise<RootRoleId[]>;
}

/**
 * People's sessions: a login starts one and answers its cookie; each request's cookie is
 * resolved to the user it stands for while the session lasts and the user exists.
 */
export class SessionService {
  constructor(
    private readonly store: SessionStore,
    private readonly users: SessionUsers,
    private readonly settings: SessionSettings,
    /** The ways to log in that a 401 names (lib/auth/login-methods.ts). */
    private readonly logins: { details(): Promise<LoginDetails> },
    private readonly now: () => Date = () => new Date(),
    /** Personal access tokens → the user each belongs to (lib/personal-access-tokens/authenticator.ts). */
    private readonly personalTokens?: { userIdOf(secret: string): Promise<number | undefined> },
  ) {}

  /** What a 401 on an admin route tells the UI about logging in: the password form, single sign-on. */
  loginDetails(): Promise<LoginDetails> {
    return this.logins.details();
  }

  /** Whether the person's root role holds the permission a route requires. */
  grants(person: UserCaller, permission: Permission): boolean {
    return roleGrants(person.rootRole, permission);
  }

  /** The service's public origin, which a change carried by a session cookie must come from. */
  get ownOrigins(): readonly string[] {
    return this.settings.ownOrigins;
  }

  /**
   * Starts a session for the user, as of the password they logged in with; answers the
   * Set-Cookie header that carries it. A single sign-on login keeps its ID token for logout.
   */
  async start(user: Pick<User, 'id' | 'passwordVersion'>, sso: { idToken?: string } = {}): Promise<string> {
    const { value, secretHash } = newSessionValue(user.id);
    const now = this.now();
    await this.store.insert({
      userId: user.id, secretHash, createdAt: now.toISOString(), passwordVersion: user.passwordVersion ?? 0, expiresAt: now.getTime() + SESSION_TTL_MS,
      ...(sso.idToken ? { sso: true } : {}),
    }, sso.idToken);
    return sessionCookie(value, this.settings.cookie, SESSION_TTL_MS);
  }

  /**
   * The user a request's cookies stand for; undefined without a live session. Every request reads
   * the session, its user and the groups' revision now, in one strongly consistent request, and
   * the groups again only when their revision moved, so a logout, a password change, a deleted
   * user or a changed role (the user's or a group's) holds on the next request, on every container.
   */
  async callerOf(cookies: readonly string[]): Promise<UserCaller | undefined> {
    const named = this.sessionNamed(cookies);
    if (!named) return undefined;
    const { session, user, groupsRevision } = await this.users.sessionAndUser(named.userId, named.secretHash);
    if (!session || session.expiresAt <= this.now().getTime()) return undefined;
    // A password changed after the login ended the session.
    if (!user || (user.passwordVersion ?? 0) !== session.passwordVersion) return undefined;
    return callerOfUser(user, await this.users.groupRootRolesOf(user.id, groupsRevision));
  }

  /**
   * The user a personal access token (`user:…`) belongs to, with their root role as a session
   * would give it; undefined for a token unknown, deleted or expired, or a user deleted since.
   * A password change leaves the token working, as in Unleash: deleting it is what ends it.
   */
  async callerOfPersonalToken(secret: string): Promise<UserCaller | undefined> {
    const userId = await this.personalTokens?.userIdOf(secret);
    if (userId === undefined) return undefined;
    // Read now, with the groups' revision, so a changed role holds at once.
    const { user, groupsRevision } = await this.users.userAndGroupsRevision(userId);
    return user ? callerOfUser(user, await this.users.groupRootRolesOf(user.id, groupsRevision)) : undefined;
  }

  /**
   * Ends the session the cookies name, and only that one: the person's other devices stay logged
   * in (Unleash ends them all, which made a logout forced on one browser end every other; a
   * changed password still ends them all). Answers the Set-Cookie header that clears the cookie,
   * and the ended session's ID token when it came from single sign-on.
   */
  async end(cookies: readonly string[]): Promise<{ cookie: string; idToken: string | undefined }> {
    const named = this.sessionNamed(cookies);
    const session = named ? await this.store.get(named.userId, named.secretHash) : undefined;
    const idToken = session?.sso ? await this.store.idTokenOf(session.userId, session.secretHash) : undefined;
    if (session) await this.store.delete(session.userId, session.secretHash);
    return { cookie: clearedSessionCookie(this.settings.cookie), idToken };
  }

  private sessionNamed(cookies: readonly string[]) {
    const value = cookieValue(cookies, SESSION_COOKIE);
    return value ? parseSessionValue(value) : undefined;
  }
}

/**
 * The user each caller resolved from a session or a personal access token was made from, read in
 * the same request: an operation about the caller themselves (GET /api/admin/user) answers from
 * it instead of reading the user a second time. Keyed by the caller object, so it lives as long
 * as the request's caller does.
 */
const usersOfCallers = new WeakMap<UserCaller, User>();

/** The user read for this caller in this request, if the caller is a person resolved here. */
export const userReadFor = (caller: object): User | undefined => usersOfCallers.get(caller as UserCaller);

/** The caller a user stands for, with the strongest of their own root role and their groups'. */
function callerOfUser(user: User, groupRoles: readonly RootRoleId[]): UserCaller {
  const caller: UserCaller = Object.freeze({
    tokenName: user.username ?? user.email ?? `user:${user.id}`,
    type: 'admin',
    environment: '*',
    projects: Object.freeze(['*']) as string[],
    userId: user.id,
    rootRole: strongestRole([user.rootRole, ...groupRoles]),
  });
  usersOfCallers.set(caller, user);
  return caller;
}
