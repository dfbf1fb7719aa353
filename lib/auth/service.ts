import { AuthenticationRequired, NotFound, PermissionDenied, RateLimited, ValidationFailed } from '../errors.js';
import type { SessionService } from '../sessions/service.js';
import type { SignupTokenService } from '../signup-tokens/service.js';
import type { User } from '../users/model.js';
import type { UserService } from '../users/service.js';
import type { UserStore } from '../users/store.js';
import {
  clientAddressOf,
  loginNameKey,
  loginWaitMs,
  newResetSecret,
  RESET_TOKEN_TTL_MS,
  resetPasswordUrl,
  resetSecretHash,
  withOneMoreTry,
  type LoginFailures,
  type ResetToken,
} from './model.js';
import { checkPasswordRules, hashPassword, verifyAgainstDecoy, verifyPassword } from '../users/password.js';
import type { LoginFailureStore, ResetTokenStore } from './store.js';
import type { LoginMethods } from './login-methods.js';

/** A login's outcome: the user, and the Set-Cookie header of their new session. */
export interface LoggedIn {
  user: User;
  cookie: string;
}

export type Credentials = Pick<UserStore, 'credentials' | 'recordFailedLogin' | 'recordLogin'>;

export interface PasswordChange {
  password: string;
  confirmPassword: string;
  oldPassword: string;
}

export interface InviteSignup {
  name: string;
  email: string;
  password: string;
  username?: string | undefined;
}

/**
 * People's passwords: login, changing one's own, an admin's reset link, and signing up through
 * an invite link. Every way a password changes ends the user's sessions, as in Unleash.
 */
export class AuthService {
  constructor(
    private readonly users: Pick<UserService, 'findByLogin' | 'find' | 'get' | 'setPassword'>,
    private readonly credentials: Credentials,
    private readonly sessions: Pick<SessionService, 'start'>,
    private readonly resetTokens: ResetTokenStore,
    private readonly loginFailures: LoginFailureStore,
    private readonly signupTokens: Pick<SignupTokenService, 'isOpen' | 'signUp'>,
    private readonly loginMethods: Pick<LoginMethods, 'requirePasswordLogin'>,
    private readonly unleashUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * An unknown user and a wrong password get the same 401 after the same work (a decoy hash is
   * checked), and tries are counted per login name as typed and client address whether or not
   * the name is anyone's (lib/auth/model.ts), so neither the answers nor their timing say whether
   * the user exists. `sourceIp` is the client's address as the router resolved it (lib/http/client-address.ts).
   */
  async login(login: string, password: string, sourceIp: string | undefined): Promise<LoggedIn> {
    await this.loginMethods.requirePasswordLogin();
    const tries = { loginKey: loginNameKey(login), address: clientAddressOf(sourceIp) };
    const counted = await this.loginFailures.get(tries.loginKey, tries.address);
    refuseWhileWaiting(counted, this.now());
    // Everything is read before the first write, so a read that fails never answers 503 for a try that was counted.
    const user = await this.users.findByLogin(login);
    const stored = user ? await this.credentials.credentials(user.id) : undefined;
    await this.countTry(tries.loginKey, tries.address, counted);
    if (!user || !stored) {
      await verifyAgainstDecoy(password);
      throw wrongLogin();
    }
    const now = this.now();
    if (!(await verifyPassword(password, stored.passwordHash))) {
      await this.credentials.recordFailedLogin(user.id);
      throw wrongLogin();
    }
    await this.loginFailures.forget(tries.loginKey, tries.address);
    await this.credentials.recordLogin(user.id, now.toISOString());
    const cookie = await this.sessions.start(user);
    return { user: { ...user, loginAttempts: 0, seenAt: now.toISOString() }, cookie };
  }

  /**
   * Counts the try before its password is checked, or refuses it while its address waits. The
   * count is replaced on the value read, so tries sent at once are counted one by one; one that
   * keeps losing that race is refused like a waiting one.
   */
  private async countTry(loginKey: string, address: string, counted: LoginFailures | undefined): Promise<void> {
    let read = counted;
    for (let attempt = 1; ; attempt += 1) {
      const now = this.now();
      refuseWhileWaiting(read, now);
      if (await this.loginFailures.replace(loginKey, address, read, withOneMoreTry(read, now))) return;
      if (attempt === 3) throw tooManyLogins(1000);
      // The write that lost stored nothing.
      read = await this.loginFailures.get(loginKey, address);
    }
  }

  /** A logged-in user's own password: the old one must match, and the new one twice (Unleash's rules). */
  async changePassword(userId: number, change: PasswordChange): Promise<void> {
    if (change.password !== change.confirmPassword) throw new ValidationFailed('confirmPassword: does not match password');
    checkPasswordRules(change.password);
    const stored = await this.credentials.credentials(userId);
    if (!stored || !(await verifyPassword(change.oldPassword, stored.passwordHash))) {
      throw new AuthenticationRequired('oldPassword: the old password you gave is not right');
    }
    await this.users.setPassword(userId, change.password);
  }

  /** An admin sets another user's password (Unleash's rules); that user's sessions end, as on their own change. */
  async setPasswordFor(userId: number, password: string): Promise<void> {
    await this.users.setPassword(userId, password);
  }

  /**
   * An admin's reset link for a user named by e-mail (what Unleash's UI sends as `id`) or by
   * numeric id (users who have only a username). No e-mail is sent: the link is the answer.
   */
  async createResetLink(id: string, createdBy: string): Promise<string> {
    const user = /^\d+$/.test(id) ? await this.users.find(Number(id)) : await this.users.findByLogin(id);
    if (!user) throw new NotFound(`Could not find the user ${id}`);
    const { secret, secretHash } = newResetSecret();
    const now = this.now();
    await this.resetTokens.insert({
      secretHash, userId: user.id, createdBy, createdAt: now.toISOString(), expiresAt: now.getTime() + RESET_TOKEN_TTL_MS, usedAt: null,
      passwordVersion: user.passwordVersion ?? 0,
    });
    return resetPasswordUrl(this.unleashUrl, secret);
  }

  /**
   * The user a reset link is for: 401 for an unknown or expired link, or one a newer link or a
   * password change ended; 403 for a used one, as Unleash answers.
   */
  async resetTokenUser(secret: string): Promise<{ token: ResetToken; user: User }> {
    const token = await this.resetTokens.get(resetSecretHash(secret));
    if (!token || token.expiresAt <= this.now().getTime()) throw invalidResetToken();
    if (token.usedAt !== null) throw usedResetToken(token.usedAt);
    const user = await this.users.find(token.userId);
    if (!user || !token.current || token.passwordVersion !== (user.passwordVersion ?? 0)) throw invalidResetToken();
    return { token, user };
  }

  /**
   * Sets a new password through a reset link, which is then used up: one write that uses the link
   * and sets the password on the password version the link recorded, so a password changed since
   * the check is not overwritten, and a write that fails leaves the link usable.
   */
  async resetPassword(secret: string, password: string): Promise<void> {
    checkPasswordRules(password);
    const { token } = await this.resetTokenUser(secret);
    const outcome = await this.resetTokens.useToSetPassword(token, await hashPassword(password), this.now());
    if (outcome === 'used') throw usedResetToken('a moment ago');
    if (outcome === 'ended') throw invalidResetToken();
  }

  isInviteOpen(secret: string): Promise<boolean> {
    return this.signupTokens.isOpen(secret);
  }

  /** Unleash's public invite: creates the user with the link's role and password, and logs them in. */
  async signUp(secret: string, input: InviteSignup): Promise<LoggedIn> {
    // A password signup would open the password login that is turned off.
    await this.loginMethods.requirePasswordLogin();
    if (!(await this.signupTokens.isOpen(secret))) throw inviteClosed();
    // The password rules are checked where every user is created (UserService.create).
    const user = await this.signupTokens.signUp(secret, input, input.email);
    return { user, cookie: await this.sessions.start(user) };
  }

}

const wrongLogin = (): AuthenticationRequired =>
  new AuthenticationRequired('Wrong username or password. If you forgot your password, ask an administrator for a reset link.');
function refuseWhileWaiting(counted: LoginFailures | undefined, now: Date): void {
  const wait = loginWaitMs(counted, now);
  if (wait > 0) throw tooManyLogins(wait);
}
const tooManyLogins = (waitMs: number): RateLimited =>
  new RateLimited('Too many failed logins with this name from your address; try again later.', Math.ceil(waitMs / 1000));
const invalidResetToken = (): AuthenticationRequired => new AuthenticationRequired('token: this reset link is not valid or has expired');
const usedResetToken = (usedAt: string): PermissionDenied =>
  new PermissionDenied('RESET_PASSWORD', `token: this reset link was already used (${usedAt})`);
const inviteClosed = (): ValidationFailed => new ValidationFailed('token: this invite link is unknown, disabled or has expired');
