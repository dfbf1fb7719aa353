import { randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import { Conflict } from '../errors.js';
import { log } from '../log.js';
import type { GroupService } from '../groups/service.js';
import type { SessionService } from '../sessions/service.js';
import { cookieHeader, cookieValue } from '../sessions/model.js';
import { hashSecret } from '../tokens/model.js';
import type { User } from '../users/model.js';
import type { UserService } from '../users/service.js';
import type { UserStore } from '../users/store.js';
import { groupsAt, LOGIN_BROWSER_COOKIE, PENDING_LOGIN_TTL_MS, type OidcSettings } from './model.js';
import { describe, ProviderUnavailable, type IdentityProviders, type ProviderSettings } from './provider.js';
import type { OidcSettingsService } from './service.js';
import type { PendingLoginStore } from './store.js';

/** A login the service refuses: the person is sent back to the login page, which shows `message`. */
export class LoginRefused extends Error {}

/** Where the browser goes next, and the cookies it is handed on the way. */
export interface LoginStep {
  location: string;
  cookies: string[];
}

export interface OidcLoginSettings {
  /**
   * Where people's browsers reach the service: ADMIN_UI_URL when the UI is served elsewhere than
   * UNLEASH_URL (a custom API domain beside the CloudFront distribution), else UNLEASH_URL. The
   * login starts, the provider calls back and the person lands there, so the cookies set on the
   * way are the UI's.
   */
  publicUrl: string;
  /** Whether cookies are sent only over https (lib/sessions/model.ts). */
  secureCookies: boolean;
}

/**
 * Where browsers reach the service: ADMIN_UI_URL when set (the UI beside a custom API domain),
 * else UNLEASH_URL with BASE_URI_PATH's path when UNLEASH_URL has none.
 */
export function publicUrlOf(config: { unleashUrl: string; adminUiUrl?: string | undefined; baseUriPath: string }): string {
  if (config.adminUiUrl) return config.adminUiUrl;
  const url = new URL(config.unleashUrl);
  return url.pathname === '/' && config.baseUriPath ? `${url.origin}${config.baseUriPath}` : config.unleashUrl;
}

/** The actor change events name for what a login does by itself (a user created, groups synced). */
export const SSO_ACTOR = 'oidc-login';

/**
 * Unleash's OpenID Connect login: the authorization-code flow with PKCE, `state` and `nonce`.
 * `begin` stores the login under way and sends the browser to the provider; `complete` takes it
 * back (once), has openid-client exchange the code and verify the ID token, finds or creates
 * the user by the token's e-mail, syncs their SSO groups and starts a session as a password
 * login does. Nothing is created until the token has passed every check.
 */
export class OidcLoginService {
  constructor(
    private readonly settings: Pick<OidcSettingsService, 'forLogin'>,
    private readonly providers: IdentityProviders,
    private readonly pending: PendingLoginStore,
    private readonly users: Pick<UserService, 'findByEmail' | 'create'>,
    private readonly logins: Pick<UserStore, 'recordLogin'>,
    private readonly groups: Pick<GroupService, 'syncSsoMemberships'>,
    private readonly sessions: Pick<SessionService, 'start'>,
    private readonly config: OidcLoginSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The callback the provider is configured with: `<UNLEASH_URL>/auth/oidc/callback`. */
  get callbackUrl(): string {
    return `${this.root}/auth/oidc/callback`;
  }

  /** The signed-out page, where single sign-out sends the browser back to. */
  get signedOutUrl(): string {
    return `${this.root}/signed-out`;
  }

  /** The public URL without a trailing slash. */
  private get root(): string {
    return this.config.publicUrl.replace(/\/+$/, '');
  }

  /** The path people see the service under (BASE_URI_PATH, or ADMIN_UI_URL's path). */
  private get basePath(): string {
    return new URL(this.root).pathname.replace(/\/+$/, '');
  }

  /** Sends the browser to the provider's login page; `redirect` is where in the UI it lands afterwards. */
  async begin(redirect: string | undefined): Promise<LoginStep> {
    const { settings, configuration } = await this.provider();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    const browser = randomBytes(32).toString('base64url');
    await this.pending.insert({
      stateHash: hashSecret(state), browserHash: hashSecret(browser), nonce, codeVerifier,
      redirect: this.landingOf(redirect), expiresAt: this.now().getTime() + PENDING_LOGIN_TTL_MS,
    });
    const location = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl,
      scope: ['openid', 'email', 'profile', ...(settings.addGroupsScope ? ['groups'] : [])].join(' '),
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      ...(settings.acrValues ? { acr_values: settings.acrValues } : {}),
    });
    return { location: location.href, cookies: [this.browserCookie(state, browser, PENDING_LOGIN_TTL_MS)] };
  }

  /**
   * The provider's answer: `query` is the callback's query string. The login under way is taken
   * first, whatever follows, so a replayed or second callback finds nothing.
   */
  async complete(query: Record<string, string | undefined>, cookies: readonly string[]): Promise<LoginStep> {
    const state = query.state;
    const login = state ? await this.pending.take(hashSecret(state)) : undefined;
    if (!login || login.expiresAt <= this.now().getTime()) {
      throw new LoginRefused('This sign-in link has expired or was already used. Sign in again.');
    }
    const browser = cookieValue(cookies, browserCookieName(login.stateHash));
    if (!browser || hashSecret(browser) !== login.browserHash) {
      throw new LoginRefused('This sign-in was started in another browser or tab whose cookies were cleared. Sign in again from this browser.');
    }
    if (query.error) {
      throw new LoginRefused(`The identity provider refused the sign-in: ${query.error_description ?? query.error}.`);
    }
    const { settings, configuration } = await this.provider();
    const claims = await this.verifiedClaims(configuration, query, login);
    // The person's browser carries acr_values and could drop them: the answer must show the level asked for.
    const acrValues = settings.acrValues?.split(' ').filter(Boolean) ?? [];
    if (acrValues.length > 0 && !acrValues.includes(String(claims.acr ?? ''))) {
      throw new LoginRefused(`The identity provider did not confirm the required authentication level (acr ${acrValues.join(' or ')}); sign in again as it asks.`);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email) {
      throw new LoginRefused("The identity provider's ID token carries no e-mail address. Ask for the email scope and claim in its settings.");
    }
    // Some providers send the flag as a string.
    if (claims.email_verified === false || claims.email_verified === 'false') {
      throw new LoginRefused(`The identity provider says the e-mail address ${email} is not verified.`);
    }
    const user = await this.userFor(email, claims, settings);
    const ssoGroups = settings.enableGroupSyncing && settings.groupJsonPath ? groupsAt(claims, settings.groupJsonPath) : undefined;
    if (ssoGroups) await this.groups.syncSsoMemberships(user.id, ssoGroups, SSO_ACTOR);
    await this.logins.recordLogin(user.id, this.now().toISOString());
    const session = await this.sessions.start(user, { idToken: claims.idToken });
    return { location: login.redirect, cookies: [session, ...this.forgetBrowserCookie(state)] };
  }

  /** The provider's sign-out page for single sign-out, when it is on and the provider has one; else undefined. */
  async signOutUrl(idToken: string | undefined): Promise<string | undefined> {
    if (!idToken) return undefined;
    const { settings, configuration } = await this.provider().catch(() => ({ settings: undefined, configuration: undefined }));
    if (!settings?.enableSingleSignOut || !configuration?.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(configuration, { id_token_hint: idToken, post_logout_redirect_uri: this.signedOutUrl }).href;
  }

  /** The page people are sent to when a login is refused: the UI's login page shows `errorMsg`. */
  refusedLocation(message: string): string {
    return `${this.basePath}/login?errorMsg=${encodeURIComponent(message)}`;
  }

  /** Clears the cookie of a login under way (named by its state), once it is over either way; nothing without a state. */
  forgetBrowserCookie(state: string | undefined): string[] {
    return state ? [this.browserCookie(state, '', 0)] : [];
  }

  private async provider() {
    const settings = await this.settings.forLogin();
    if (!settings) throw new LoginRefused('Single sign-on is not enabled. Sign in with your username and password.');
    try {
      return { settings, configuration: await this.providers.configurationFor(settings.provider) };
    } catch (error) {
      if (error instanceof ProviderUnavailable) {
        log.warn('OIDC provider unavailable', { error: describe(error) });
        throw new LoginRefused(`The identity provider could not be reached, so single sign-on is not available now. ${error.message}`);
      }
      throw error;
    }
  }

  private async verifiedClaims(configuration: client.Configuration, query: Record<string, string | undefined>, login: { nonce: string; codeVerifier: string }) {
    const currentUrl = new URL(this.callbackUrl);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) currentUrl.searchParams.set(name, value);
    try {
      const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: login.codeVerifier,
        expectedNonce: login.nonce,
        expectedState: query.state,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || !tokens.id_token) throw new Error('no ID token in the token response');
      return { ...claims, idToken: tokens.id_token } as Record<string, unknown> & { idToken: string };
    } catch (error) {
      // The details are for the operator's log; the person is told the sign-in failed and why in short.
      log.warn('OIDC login refused', { error: describe(error) });
      if (isNetworkFailure(error)) throw new LoginRefused('The identity provider could not be reached to finish the sign-in. Try again.');
      throw new LoginRefused(`The identity provider's answer did not pass the checks, so you were not signed in (${describe(error)}).`);
    }
  }

  /** The user of the token's e-mail; with autoCreate, a new one with the default root role. */
  private async userFor(email: string, claims: Record<string, unknown>, settings: LoginSettings): Promise<User> {
    // By e-mail only: a username may be anything a person chose (an invite signup), even someone else's address.
    const existing = await this.users.findByEmail(email);
    if (existing) return existing;
    if (!settings.autoCreate) {
      throw new LoginRefused(`There is no user with the e-mail address ${email} here. Ask an administrator to add you.`);
    }
    const domain = email.slice(email.lastIndexOf('@') + 1);
    if (settings.emailDomains && !settings.emailDomains.split(',').map((entry) => entry.trim().toLowerCase()).includes(domain)) {
      throw new LoginRefused(`Users from ${domain} are not created automatically here. Ask an administrator to add you.`);
    }
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null;
    try {
      return await this.users.create({ email, name, rootRole: settings.defaultRootRoleId ?? settings.defaultRootRole }, SSO_ACTOR);
    } catch (error) {
      // Two first logins at once: the other one created the user.
      if (error instanceof Conflict) {
        const created = await this.users.findByEmail(email);
        if (created) return created;
      }
      throw error;
    }
  }

  /**
   * Only a path under this service, never another site (an open redirect): resolved against the
   * public URL as a browser would (which drops tabs and newlines, so `/\t/evil.example` is
   * `//evil.example`) and kept only when it stays on that origin. Anything else lands on the UI's start.
   */
  private landingOf(redirect: string | undefined): string {
    const start = `${this.basePath}/`;
    if (!redirect || redirect.length > 2048 || !redirect.startsWith('/') || /[\x00-\x1f\\]/.test(redirect)) return start;
    const { origin } = new URL(this.root);
    const target = new URL(redirect.startsWith(`${this.basePath}/`) && this.basePath ? redirect : `${this.basePath}${redirect}`, origin);
    if (target.origin !== origin || !target.pathname.startsWith(start)) return start;
    return `${target.pathname}${target.search}${target.hash}`;
  }

  /** One cookie per login under way, named by its state: two tabs' logins do not overwrite each other's. */
  private browserCookie(state: string, value: string, maxAgeMs: number): string {
    // Lax (as the session's): sent on the provider's top-level redirect back to the callback.
    return cookieHeader(browserCookieName(hashSecret(state)), value, { path: `${this.basePath}/auth/oidc`, secure: this.config.secureCookies }, maxAgeMs);
  }
}

/** The cookie of one login under way: the prefix and the start of its state's hash. */
const browserCookieName = (stateHash: string): string => `${LOGIN_BROWSER_COOKIE}-${stateHash.slice(0, 16)}`;

type LoginSettings = OidcSettings & { provider: ProviderSettings };

function isNetworkFailure(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError' || (current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    if (current.message === 'fetch failed') return true;
  }
  return false;
}
