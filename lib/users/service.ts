import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { retryOnChange } from '../optimistic.js';
import { resolveRootRole, ROOT_ROLE, ROOT_ROLE_NAMES, type RootRoleId } from '../roles/model.js';
import { emailVouched, normalizeEmail, sameIdentity, type SsoIdentity, type User, type UserDetails, type UserInput } from './model.js';
import type { UserStore } from './store.js';
import { checkPasswordRules, hashPassword } from './password.js';

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
      // A person signing up through an invite link typed the address themselves; anyone else making a user is an administrator.
      emailVerifiedBy: signupToken === null ? 'admin' : null,
    };
    const outcome = await this.store.insert(user, now, actor, passwordHash);
    if (outcome === 'signup-closed') throw signupClosed();
    if (outcome !== 'done') throw taken(outcome, user);
    return user;
  }

  /**
   * A user made by a single sign-on login, with the identity it came with linked in the same
   * write: two first logins at once make one user, and no user is left without its link. The
   * provider vouched for the e-mail. A Conflict when the e-mail or the identity is taken.
   */
  async createLinked(details: Pick<UserInput, 'name' | 'email' | 'rootRole'>, identity: SsoIdentity, actor: string): Promise<User> {
    const now = this.now().toISOString();
    const user: User = {
      id: await this.store.nextId(), ...detailsOf({ ...details, username: null }), createdAt: now, createdBy: actor, seenAt: null,
      loginAttempts: 0, signupToken: null, version: 1, emailVerifiedBy: 'sso', ssoIdentities: [identity],
    };
    const outcome = await this.store.insert(user, now, actor);
    if (outcome === 'done') return user;
    if (outcome === 'signup-closed') throw signupClosed();
    throw taken(outcome, user);
  }

  /** The user this single sign-on identity is linked to, if any. */
  async findByIdentity(identity: SsoIdentity): Promise<User | undefined> {
    const id = await this.store.idOfIdentity(identity);
    return id === undefined ? undefined : this.store.get(id);
  }

  /**
   * Links a single sign-on identity to the user of this id at its first login, read afresh on each
   * attempt: only while the user still has `email`, someone other than its typist vouched for that
   * e-mail, and it holds no identity of the same provider (one person, one account per provider).
   * Linking the identity it already holds answers the user (two first logins at once).
   */
  async linkIdentity(id: number, email: string, identity: SsoIdentity, actor: string): Promise<LinkOutcome> {
    return retryOnChange('user', async (): Promise<LinkOutcome | undefined> => {
      const user = await this.store.get(id);
      if (!user || user.email !== email) return { refused: 'changed' };
      const held = user.ssoIdentities ?? [];
      if (held.some((linked) => sameIdentity(linked, identity))) return { user };
      if (held.some((linked) => linked.issuer === identity.issuer)) return { refused: 'issuer-linked' };
      if (!emailVouched(user)) return { refused: 'email-unverified' };
      const outcome = await this.store.linkIdentity(user, identity, actor);
      if (outcome === 'changed') return undefined;
      if (outcome === 'identity-taken') return { refused: 'identity-taken' };
      return { user: { ...user, ssoIdentities: [...held, identity], version: user.version + 1 } };
    });
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
      const details = detailsOf({
        name: changes.name === undefined ? before.name : changes.name,
        email: changes.email === undefined ? before.email : changes.email,
        username: changes.username === undefined ? before.username : changes.username,
        rootRole: changes.rootRole ?? before.rootRole,
      });
      const after: User = { ...before, ...details, emailVerifiedBy: vouchedAfter(before, details.email, changes.emailVerified), version: before.version + 1 };
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

  /**
   * Sets a user's password (the password rules apply). The password's own write ends the user's
   * sessions and reset links (passwordVersion). The failed-login counts of the user's names are
   * left as they are: each is one address's, its wait is at most 15 minutes and it lapses a day
   * after its last try, while a clean-up would cost a request per address that ever failed, a
   * number anyone can grow.
   */
  async setPassword(id: number, password: string): Promise<void> {
    checkPasswordRules(password);
    if ((await this.store.setPassword(id, await hashPassword(password), this.now().toISOString())) === 'gone') {
      throw new NotFound(`No user found with id ${id}`);
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

/** What linking an SSO identity to an existing user came to: the user, or why not. */
export type LinkOutcome = { user: User; refused?: undefined } | { refused: 'changed' | 'issuer-linked' | 'email-unverified' | 'identity-taken' };

/**
 * Who vouches for the e-mail after an administrator's update: their word when they give it, an
 * address they set themselves, else whoever vouched before (an unchanged address keeps its state,
 * so editing an invited user's name or role does not vouch for an address they typed).
 */
function vouchedAfter(before: User, email: string | null, word: boolean | undefined): User['emailVerifiedBy'] {
  if (word !== undefined) return word ? 'admin' : null;
  if (email !== before.email) return 'admin';
  return emailVouched(before) ? (before.emailVerifiedBy ?? 'admin') : null;
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

function taken(outcome: 'email-taken' | 'username-taken' | 'identity-taken', user: User): Conflict {
  if (outcome === 'identity-taken') return new Conflict('This single sign-on identity is linked to another user already');
  return outcome === 'email-taken'
    ? new Conflict(`A user with the e-mail ${user.email} already exists`)
    : new Conflict(`A user with the username ${user.username} already exists`);
}

const userNotFound = (id: number): NotFound => new NotFound(`No user found with id ${id}`);
const signupClosed = (): ValidationFailed =>
  new ValidationFailed('token: this signup link is disabled or has expired');
