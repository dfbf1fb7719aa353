import { AuthenticationRequired, ValidationFailed, type LoginDetails } from '../errors.js';
import { loginPathOf } from '../tokens/authenticator.js';
import type { PasswordLoginStore } from './store.js';

/** How long a container answers the login options it read, before it reads them again. */
export const REMEMBERED_MS = 10_000;

export interface LoginMethodsState {
  oidc: boolean;
  password: boolean;
}

/**
 * Which ways of logging in are open: OpenID Connect while its settings are enabled, and the
 * password unless the simple-auth setting turned it off. That setting counts only while single
 * sign-on is on, so turning OIDC off can never leave nobody able to log in; and it is refused
 * while OIDC is off. API tokens work whatever these say. Other containers see a change within
 * REMEMBERED_MS.
 */
export class LoginMethods {
  private remembered: { state: LoginMethodsState; until: number } | undefined;

  constructor(
    private readonly passwords: PasswordLoginStore,
    private readonly oidc: { isEnabled(): Promise<boolean> },
    /** `oidcLoginUrl`: the login's start, absolute, where the provider's callback lands too (publicUrlOf in lib/config.ts). */
    private readonly urls: { oidcLoginUrl: string; baseUriPath: string },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** What is open now, read from the store. */
  async state(): Promise<LoginMethodsState> {
    const [oidc, disabled] = await Promise.all([this.oidc.isEnabled(), this.passwords.disabled()]);
    const state = { oidc, password: !(oidc && disabled) };
    this.remembered = { state, until: this.now().getTime() + REMEMBERED_MS };
    return state;
  }

  /**
   * What is open, as last read within REMEMBERED_MS: for what anyone may ask without logging in
   * (every 401 names the login options, the UI config). A flood of requests without a session
   * then costs no reads, and a read that fails keeps the last answer (the password form when
   * there is none) rather than turning a 401 into a 503. Logins themselves read afresh.
   */
  async rememberedState(): Promise<LoginMethodsState> {
    const remembered = this.remembered;
    if (remembered && this.now().getTime() < remembered.until) return remembered.state;
    return this.state().catch(() => remembered?.state ?? { oidc: false, password: true });
  }

  /** Forgets what was read: this container changed a login setting, and answers it at once. */
  forget(): void {
    this.remembered = undefined;
  }

  async details(): Promise<LoginDetails> {
    const { oidc, password } = await this.rememberedState();
    return {
      type: 'password',
      path: loginPathOf(this.urls.baseUriPath),
      defaultHidden: !password,
      // Absolute: the provider sends the browser back to that origin's callback, so the login must
      // start there too (its cookie ties the two); a page opened at another name of the server
      // (127.0.0.1 for localhost) could not finish.
      ...(oidc ? { options: [{ type: 'oidc', message: 'Sign in with OpenID Connect', path: this.urls.oidcLoginUrl }] } : {}),
    };
  }

  /** The simple-auth setting as stored (Unleash's `/api/admin/auth/simple/settings`). */
  async passwordSettings(): Promise<{ disabled: boolean }> {
    return { disabled: await this.passwords.disabled() };
  }

  async setPasswordDisabled(disabled: boolean, by: string): Promise<{ disabled: boolean }> {
    if (disabled && !(await this.oidc.isEnabled())) {
      throw new ValidationFailed(
        'disabled: password login can only be turned off while single sign-on is on; enable OIDC (POST /api/admin/auth/oidc/settings) first',
      );
    }
    await this.passwords.setDisabled(disabled, by, this.now().toISOString());
    this.forget();
    return { disabled };
  }

  /** Refuses a password login, signup or reset while password login is off. */
  async requirePasswordLogin(): Promise<void> {
    if (!(await this.state()).password) {
      throw new AuthenticationRequired('Password login is disabled on this instance. Sign in with single sign-on.', loginPathOf(this.urls.baseUriPath));
    }
  }
}
