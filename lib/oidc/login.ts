import * as client from 'openid-client';
import { log } from '../log.js';
import type { GroupService } from '../groups/service.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { SessionService } from '../sessions/service.js';
import { cookieHeader, cookieValue } from '../sessions/model.js';
import { hashSecret } from '../tokens/model.js';
import type { UserStore } from '../users/store.js';
import { LoginRefused, SSO_ACTOR, type SsoAccounts } from './accounts.js';
import { isOwnPath, landingOf } from './landing.js';
import { groupsAt, LOGIN_BROWSER_COOKIE, LOGIN_UNDER_WAY_PURPOSE, LOGIN_UNDER_WAY_TTL_MS, type LoginUnderWay, type OidcSettings } from './model.js';
import { describe, ProviderUnavailable, type IdentityProviders } from './provider.js';
import type { OidcSettingsService } from './service.js';

export { LoginRefused, SSO_ACTOR };

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
 * Unleash's OpenID Connect login: the authorization-code flow with PKCE, `state` and `nonce`.
 * `begin` seals the login under way into a cookie of its own and sends the browser to the
 * provider, writing nothing; `complete` opens it (its cookie is cleared on the way out), has
 * openid-client exchange the code and verify the ID token, finds the account the token's
 * subject is linked to (lib/oidc/accounts.ts), syncs their SSO groups and starts a session as a
 * password login does. Nothing is created until the token has passed every check.
 */
export class OidcLoginService {
  constructor(
    private readonly settings: Pick<OidcSettingsService, 'forLogin'>,
    private readonly providers: IdentityProviders,
    /** Seals the login under way: the browser carries it, but can neither read nor change it. */
    private readonly box: Pick<SecretBox, 'seal' | 'open'>,
    private readonly accounts: SsoAccounts,
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

  /**
   * Sends the browser to the provider's login page; `redirect` is where in the UI it lands
   * afterwards. `cookies` are the browser's: when it already carries more than
   * MAX_LOGINS_CARRIED logins under way (tabs, or login links someone else made it follow), all
   * of them are cleared but the new one, so their cookies cannot pile up past the header limit.
   * Cookies do not say their age, so the new login is the one kept.
   */
  async begin(redirect: string | undefined, cookies: readonly string[] = []): Promise<LoginStep> {
    const { settings, configuration } = await this.provider();
    const state = client.randomState();
    const login: LoginUnderWay = {
      stateHash: hashSecret(state), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier(),
      redirect: landingOf(redirect, this.root), expiresAt: this.now().getTime() + LOGIN_UNDER_WAY_TTL_MS,
    };
    const sealed = await this.box.seal(JSON.stringify(login), LOGIN_UNDER_WAY_PURPOSE);
    const location = client.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl,
      scope: ['openid', 'email', 'profile', ...(settings.addGroupsScope ? ['groups'] : [])].join(' '),
      state,
      nonce: login.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(login.codeVerifier),
      code_challenge_method: 'S256',
      ...(settings.acrValues ? { acr_values: settings.acrValues } : {}),
    });
    const carried = loginCookieNames(cookies);
    const cleared = carried.length > MAX_LOGINS_CARRIED ? carried.map((name) => this.clearedCookie(name)) : [];
    return { location: location.href, cookies: [this.browserCookie(state, sealed, LOGIN_UNDER_WAY_TTL_MS), ...cleared] };
  }

  /**
   * The provider's answer: `query` is the callback's query string. The login under way is read
   * from this browser's cookie for the answer's state, so a callback only finishes in the browser
   * that started it; the answer clears that cookie whatever follows, and the provider takes a
   * code once, so a replayed callback finishes nothing.
   */
  async complete(query: Record<string, string | undefined>, cookies: readonly string[]): Promise<LoginStep> {
    const state = query.state;
    const login = state ? await this.loginUnderWay(state, cookies) : undefined;
    if (!login || login.expiresAt <= this.now().getTime()) {
      throw new LoginRefused(
        'This sign-in link has expired or was already used, or it was started in another browser or a tab whose cookies were cleared. Sign in again from this browser.',
      );
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
    const session = await this.admit(claims, settings);
    // A login finished leaves the browser's other logins under way pointless: their cookies go too.
    const own = browserCookieName(login.stateHash);
    const others = loginCookieNames(cookies).filter((name) => name !== own).map((name) => this.clearedCookie(name));
    return { location: this.ownLocation(login.redirect), cookies: [session, ...this.forgetBrowserCookie(state), ...others] };
  }

  /**
   * What a login does once the provider's answer passed every check: finds or links the account
   * the verified claims name (lib/oidc/accounts.ts), syncs their SSO groups, records the login and
   * starts a session, whose Set-Cookie header it answers. Its own step, so the store's side of a
   * login can be measured apart from the provider's exchange (test/integration/sso-concurrent-logins.test.ts).
   */
  async admit(claims: Record<string, unknown> & { idToken: string }, settings: AdmitSettings): Promise<string> {
    const user = await this.accounts.accountFor(claims, settings);
    const ssoGroups = settings.enableGroupSyncing && settings.groupJsonPath ? groupsAt(claims, settings.groupJsonPath) : undefined;
    if (ssoGroups && (await this.groups.syncSsoMemberships(user.id, ssoGroups, SSO_ACTOR)) === 'unknown-user') {
      // Deleted while signing in: refused as a login finding no account is, not as a bad group edit.
      throw new LoginRefused('Your user was deleted while you signed in. Ask an administrator to add you.');
    }
    await this.logins.recordLogin(user.id, this.now().toISOString());
    return this.sessions.start(user, { idToken: claims.idToken });
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
    return this.ownLocation(`${this.basePath}/login?errorMsg=${encodeURIComponent(message)}`);
  }

  /**
   * The last check on every path this service sends a browser to after a login: one `/` and no
   * second (`//host` is another site), else the UI's start. The landing was resolved when the
   * login began (`landingOf`); this keeps a slip anywhere on the way from becoming a redirect away.
   */
  private ownLocation(location: string): string {
    return isOwnPath(location) ? location : `${this.basePath}/`;
  }

  /** The login under way this browser carries for `state`; undefined when it has none, or one that does not open or is another state's. */
  private async loginUnderWay(state: string, cookies: readonly string[]): Promise<LoginUnderWay | undefined> {
    const stateHash = hashSecret(state);
    const sealed = cookieValue(cookies, browserCookieName(stateHash));
    if (!sealed) return undefined;
    try {
      const login = JSON.parse(await this.box.open(sealed, LOGIN_UNDER_WAY_PURPOSE)) as LoginUnderWay;
      return login.stateHash === stateHash ? login : undefined;
    } catch (error) {
      // Changed in the browser, or sealed with a key since replaced: either way not ours to finish.
      log.warn('OIDC login cookie did not open', { error: describe(error) });
      return undefined;
    }
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

  private async verifiedClaims(configuration: client.Configuration, query: Record<string, string | undefined>, login: Pick<LoginUnderWay, 'nonce' | 'codeVerifier'>) {
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

  /**
   * One cookie per login under way, named by its state: two tabs' logins do not overwrite each
   * other's. Only the login's own paths receive it.
   */
  private browserCookie(state: string, value: string, maxAgeMs: number): string {
    return this.loginCookie(browserCookieName(hashSecret(state)), value, maxAgeMs);
  }

  /** Clears a login cookie the browser sent, named as this service names them (`loginCookieNames`). */
  private clearedCookie(name: string): string {
    return this.loginCookie(name, '', 0);
  }

  private loginCookie(name: string, value: string, maxAgeMs: number): string {
    // Lax (as the session's): sent on the provider's top-level redirect back to the callback.
    return cookieHeader(name, value, { path: `${this.basePath}/auth/oidc`, secure: this.config.secureCookies }, maxAgeMs);
  }
}

/** The settings a login's store side runs on: who may be created or linked, and where the groups are in the claims. */
export type AdmitSettings = Parameters<SsoAccounts['accountFor']>[1] & Pick<OidcSettings, 'enableGroupSyncing' | 'groupJsonPath'>;

/** How many logins under way a browser may carry before a new one clears them (see `begin`). */
export const MAX_LOGINS_CARRIED = 3;

/**
 * The names of the login cookies in the browser's Cookie headers, each once. Only names of the
 * form this service sets are taken: a name is echoed into Set-Cookie to clear it.
 */
function loginCookieNames(cookies: readonly string[]): string[] {
  const names = new Set<string>();
  for (const header of cookies) {
    for (const part of header.split(';')) {
      const name = part.slice(0, part.indexOf('=')).trim();
      if (LOGIN_COOKIE_NAME.test(name)) names.add(name);
    }
  }
  return [...names];
}

/** The cookie of one login under way: the prefix and the start of its state's hash. */
const browserCookieName = (stateHash: string): string => `${LOGIN_BROWSER_COOKIE}-${stateHash.slice(0, 16)}`;
const LOGIN_COOKIE_NAME = new RegExp(`^${LOGIN_BROWSER_COOKIE}-[0-9a-f]{16}$`);

function isNetworkFailure(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError' || (current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    if (current.message === 'fetch failed') return true;
  }
  return false;
}
