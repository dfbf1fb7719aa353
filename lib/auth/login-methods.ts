import { AuthenticationRequired, ValidationFailed, type LoginDetails } from '../errors.js';
import { loginPathOf } from '../tokens/authenticator.js';
import type { PasswordLoginStore } from './store.js';

export interface LoginMethodsState {
  oidc: boolean;
  password: boolean;
}

/**
 * Which ways of logging in are open: OpenID Connect while its settings are enabled, and the
 * password unless the simple-auth setting turned it off. That setting counts only while single
 * sign-on is on, so turning OIDC off can never leave nobody able to log in; and it is refused
 * while OIDC is off. API tokens work whatever these say.
 */
export class LoginMethods {
  constructor(
    private readonly passwords: PasswordLoginStore,
    private readonly oidc: { isEnabled(): Promise<boolean> },
    private readonly urls: { unleashUrl: string; baseUriPath: string },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async state(): Promise<LoginMethodsState> {
    const [oidc, disabled] = await Promise.all([this.oidc.isEnabled(), this.passwords.disabled()]);
    return { oidc, password: !(oidc && disabled) };
  }

  async details(): Promise<LoginDetails> {
    const { oidc, password } = await this.state();
    return {
      type: 'password',
      path: loginPathOf(this.urls.baseUriPath),
      defaultHidden: !password,
      // The button's target is absolute, at UNLEASH_URL: the provider sends the browser back to
      // UNLEASH_URL's callback, so the login must start on that origin too (its cookie ties the
      // two). A page opened at another name of the server (127.0.0.1 for localhost) could not finish.
      ...(oidc ? { options: [{ type: 'oidc', message: 'Sign in with OpenID Connect', path: `${this.urls.unleashUrl.replace(/\/+$/, '')}/auth/oidc/login` }] } : {}),
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
    return { disabled };
  }

  /** Refuses a password login, signup or reset while password login is off. */
  async requirePasswordLogin(): Promise<void> {
    if (!(await this.state()).password) {
      throw new AuthenticationRequired('Password login is disabled on this instance. Sign in with single sign-on.', loginPathOf(this.urls.baseUriPath));
    }
  }
}
