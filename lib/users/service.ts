import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { retryOnChange } from '../optimistic.js';
import { resolveRootRole, ROOT_ROLE, ROOT_ROLE_NAMES, type RootRoleId } from '../roles/model.js';
import { normalizeEmail, type User, type UserDetails, type UserInput } from './model.js';
import type { UserStore } from './store.js';
import { checkPasswordRules, hashPassword } from '../auth/password.js';

/** An update: a field left out keeps its value, `null` clears it (as Unleash's user update). */
export type UserChanges = Partial<UserInput>;

/** Unleash's default userInactivityThresholdInDays. */
export const INACTIVE_AFTER_DAYS = 180;

/** Which groups a user belongs to, so deleting the user can end those memberships. */
export interface MembershipLookup {
  groupIdsOf(userId: number): Promise<number[]>;
}

export class UserService {
  constructor(
    private readonly store: UserStore,
    private readonly memberships: MembershipLookup,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<User[]> {
    return (await this.store.list()).sort((a, b) => a.id - b.id);
  }

  async get(id: number): Promise<User> {
    const user = await this.store.get(id);
    if (!user) throw userNotFound(id);
    return user;
  }

  /** Whether any user exists: the first admin is made only on a table with none, as in Unleash. */
  async any(): Promise<boolean> {
    return (await this.store.list()).length > 0;
  }

  /** The users of these ids that still exist, in id order. */
  async getMany(ids: number[]): Promise<User[]> {
    return (await this.store.getMany(ids)).sort((a, b) => a.id - b.id);
  }

  /**
   * `signupToken` is the secret of the public signup token the user signs up with, if any; a
   * password, when given, must follow the password rules and is stored hashed with the user.
   * `checksPassword` false: the first admin's password, which the operator configured or a
   * generator made, is not held to the rules people's own choices are.
   */
  async create(input: UserInput, actor: string, signupToken: string | null = null, checksPassword = true): Promise<User> {
    const now = this.now().toISOString();
    // Checked before an id is drawn, so a refused create leaves the counter alone.
    const details = detailsOf(input);
    if (input.password != null && checksPassword) checkPasswordRules(input.password);
    const passwordHash = input.password == null ? undefined : await hashPassword(input.password);
    const user: User = {
      id: await this.store.nextId(),
      ...details,
      createdAt: now,
      createdBy: actor,
      seenAt: null,
      loginAttempts: 0,
      signupToken,
      version: 1,
    };
    const outcome = await this.store.insert(user, now, actor, passwordHash);
    if (outcome === 'signup-closed') throw signupClosed();
    if (outcome !== 'done') throw taken(outcome, user);
    return user;
  }

  /** The user who logs in with this e-mail or username (either compared without case), if any. */
  async findByLogin(login: string): Promise<User | undefined> {
    const value = login.trim().toLowerCase();
    if (!value) return undefined;
    // Usernames may hold an '@' too: an e-mail first, then the username.
    const id = (value.includes('@') ? await this.store.idOfLogin('email', value) : undefined) ?? (await this.store.idOfLogin('username', value));
    return id === undefined ? undefined : this.store.get(id);
  }

  /** The user with this e-mail address (compared without case), if any; never one whose username it is. */
  async findByEmail(email: string): Promise<User | undefined> {
    const value = email.trim().toLowerCase();
    const id = value ? await this.store.idOfLogin('email', value) : undefined;
    return id === undefined ? undefined : this.store.get(id);
  }

  /** The user of this id, or undefined when there is none (a session whose user was deleted). */
  find(id: number): Promise<User | undefined> {
    return this.store.get(id);
  }

  async update(id: number, changes: UserChanges, actor: string): Promise<User> {
    return retryOnChange('user', async () => {
      const before = await this.get(id);
      const after: User = {
        ...before,
        ...detailsOf({
          name: changes.name === undefined ? before.name : changes.name,
          email: changes.email === undefined ? before.email : changes.email,
          username: changes.username === undefined ? before.username : changes.username,
          rootRole: changes.rootRole ?? before.rootRole,
        }),
        version: before.version + 1,
      };
      const outcome = await this.store.replace(before, after, actor);
      if (outcome === 'changed') return undefined;
      if (outcome !== 'done') throw taken(outcome, after);
      return after;
    });
  }

  /**
   * Unleash's admin count: users whose own root role is Admin, with a password and without one
   * (SSO users, or invited users who never set one). This service has no service accounts.
   */
  async adminCount(): Promise<{ password: number; noPassword: number; service: number }> {
    const admins = (await this.store.list()).filter((user) => user.rootRole === ROOT_ROLE.Admin);
    const withPassword = (await Promise.all(admins.map((user) => this.store.credentials(user.id)))).filter(Boolean).length;
    return { password: withPassword, noPassword: admins.length - withPassword, service: 0 };
  }

  /**
   * Unleash's inactive users: neither logged in nor created in the last 180 days (its
   * userInactivityThresholdInDays). There are no personal access tokens to have been used since.
   */
  async inactive(): Promise<User[]> {
    const threshold = this.now().getTime() - INACTIVE_AFTER_DAYS * 24 * 60 * 60 * 1000;
    const before = (at: string | null) => at === null || Date.parse(at) < threshold;
    return (await this.list()).filter((user) => before(user.seenAt) && before(user.createdAt));
  }

  /**
   * Deletes the named users that are inactive, never the caller (as Unleash leaves them out).
   * Unlike Unleash, an id of an active or unknown user is left alone, so the call cannot remove
   * someone who logged in since the list was shown.
   */
  async deleteInactive(ids: readonly number[], actor: string, callerId: number | undefined): Promise<void> {
    const named = new Set(ids);
    for (const user of await this.inactive()) {
      if (named.has(user.id) && user.id !== callerId) await this.delete(user.id, actor);
    }
  }

  /** Ends the user's group memberships in the same write. */
  async delete(id: number, actor: string): Promise<void> {
    await retryOnChange('user', async () => {
      const user = await this.get(id);
      const groupIds = await this.memberships.groupIdsOf(id);
      return (await this.store.delete(user, groupIds, actor)) === 'done' ? true : undefined;
    });
  }
}

/** Unleash's rules: an e-mail or a username (or both), and a root role given by id or name. */
function detailsOf(input: UserInput): UserDetails {
  const email = blankToNull(input.email);
  const username = blankToNull(input.username);
  if (email === null && username === null) {
    throw new ValidationFailed('email: a user needs an e-mail or a username');
  }
  return {
    name: blankToNull(input.name),
    email: email === null ? null : normalizeEmail(email),
    username,
    rootRole: rootRoleOf(input.rootRole),
  };
}

export function rootRoleOf(value: number | string): RootRoleId {
  const role = resolveRootRole(value);
  if (!role) {
    throw new ValidationFailed(`rootRole: ${value} is not a root role; use ${ROOT_ROLE_NAMES.join(', ')} or ids 1, 2, 3`);
  }
  return role.id;
}

function blankToNull(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function taken(outcome: 'email-taken' | 'username-taken', user: User): Conflict {
  return outcome === 'email-taken'
    ? new Conflict(`A user with the e-mail ${user.email} already exists`)
    : new Conflict(`A user with the username ${user.username} already exists`);
}

const userNotFound = (id: number): NotFound => new NotFound(`No user found with id ${id}`);
const signupClosed = (): ValidationFailed =>
  new ValidationFailed('token: this signup link is disabled or has expired');
