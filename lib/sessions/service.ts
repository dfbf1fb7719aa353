import type { Permission, RootRoleId } from '../roles/model.js';
import { roleGrants, strongestRole } from '../roles/permissions.js';
import type { Group } from '../groups/model.js';
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

/** What sessions need of users: the user a session stands for, and the root roles of their groups. */
export interface SessionUsers {
  find(id: number): Promise<User | undefined>;
  /** A stored session (ended or not) and the user it names, read together in one strongly consistent request. */
  sessionAndUser(userId: number, secretHash: string): Promise<{ session: Session | undefined; user: User | undefined }>;
  groupRootRolesOf(userId: number): Promise<RootRoleId[]>;
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

  /** The user a request's cookies stand for; undefined without a live session. */
  /**
   * The user a request's cookies stand for; undefined without a live session. Every request reads
   * the session, its user and the groups now (two requests at once, no cache), so a logout, a
   * password change, a deleted user or a changed role holds on the next request, on every container.
   */
  async callerOf(cookies: readonly string[]): Promise<UserCaller | undefined> {
    const named = this.sessionNamed(cookies);
    if (!named) return undefined;
    const [{ session, user }, groupRoles] = await Promise.all([
      this.users.sessionAndUser(named.userId, named.secretHash), this.users.groupRootRolesOf(named.userId),
    ]);
    if (!session || session.expiresAt <= this.now().getTime()) return undefined;
    // A password changed after the login ended the session.
    if (!user || (user.passwordVersion ?? 0) !== session.passwordVersion) return undefined;
    return callerOfUser(user, groupRoles);
  }

  /**
   * The user a personal access token (`user:…`) belongs to, with their root role as a session
   * would give it; undefined for a token unknown, deleted or expired, or a user deleted since.
   * A password change leaves the token working, as in Unleash: deleting it is what ends it.
   */
  async callerOfPersonalToken(secret: string): Promise<UserCaller | undefined> {
    const userId = await this.personalTokens?.userIdOf(secret);
    return userId === undefined ? undefined : (await this.personOf(userId))?.caller;
  }

  /** A user and their strongest root role, read now, so a changed role holds at once. */
  private async personOf(userId: number): Promise<{ user: User; caller: UserCaller } | undefined> {
    const [user, groupRoles] = await Promise.all([this.users.find(userId), this.users.groupRootRolesOf(userId)]);
    return user ? { user, caller: callerOfUser(user, groupRoles) } : undefined;
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

/** The caller a user stands for, with the strongest of their own root role and their groups'. */
function callerOfUser(user: User, groupRoles: readonly RootRoleId[]): UserCaller {
  return Object.freeze({
    tokenName: user.username ?? user.email ?? `user:${user.id}`,
    type: 'admin',
    environment: '*',
    projects: Object.freeze(['*']) as string[],
    userId: user.id,
    rootRole: strongestRole([user.rootRole, ...groupRoles]),
  });
}

/** The root roles a user holds through their groups. */
export function groupRootRolesOf(groups: readonly Group[], userId: number): RootRoleId[] {
  return groups.flatMap((group) => (group.rootRole !== null && group.members.some((member) => member.userId === userId) ? [group.rootRole] : []));
}
