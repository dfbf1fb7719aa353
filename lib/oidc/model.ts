import type { RootRoleId, RootRoleName } from '../roles/model.js';

export const ID_TOKEN_SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512'] as const;
export type IdTokenSigningAlgorithm = (typeof ID_TOKEN_SIGNING_ALGORITHMS)[number];

/** The OpenID Connect login settings, as stored: the client secret only sealed (`lib/secrets/secret-box.ts`). */
export interface OidcSettings {
  enabled: boolean;
  discoverUrl: string | null;
  clientId: string;
  sealedSecret: string;
  autoCreate: boolean;
  enableSingleSignOut: boolean;
  defaultRootRole: RootRoleName;
  /** Takes precedence over `defaultRootRole` when set. */
  defaultRootRoleId: RootRoleId | null;
  emailDomains: string | null;
  acrValues: string | null;
  idTokenSigningAlgorithm: IdTokenSigningAlgorithm;
  /** Whether a login puts the user into the groups whose `mappingsSSO` name the provider's groups. */
  enableGroupSyncing: boolean;
  /** Where the ID token's claims hold the user's groups, as a dotted path (`groups`, `realm_access.roles`). */
  groupJsonPath: string | null;
  /** Asks for the `groups` scope too, for providers that send the groups claim only then. */
  addGroupsScope: boolean;
  /**
   * Whether the provider's `email` claim counts as verified when its ID token has no
   * `email_verified` claim (Entra ID sends none). Off, such an e-mail neither links a first login
   * to an existing user nor creates one. Absent on settings saved before it existed: off.
   */
  trustEmailClaim?: boolean;
  updatedAt: string;
  updatedBy: string;
}

/** The settings as the API shows them: the secret masked, never in plain text. */
export type OidcSettingsView = Omit<OidcSettings, 'sealedSecret' | 'updatedAt' | 'updatedBy' | 'trustEmailClaim'> & { secret: string; trustEmailClaim: boolean };

/**
 * What the API shows instead of a stored secret. Sending it back unchanged keeps the stored
 * secret, so a form that shows the masked settings can save them again.
 */
export const SECRET_MASK = '********';

/** The purpose the client secret is sealed for; see SecretBox. */
export const SECRET_PURPOSE = 'oidc-client-secret';

/** What a fresh instance answers: OIDC off, with the admin UI's defaults. */
export const DEFAULT_OIDC_SETTINGS: OidcSettingsView = {
  enabled: false,
  discoverUrl: null,
  clientId: '',
  secret: '',
  autoCreate: false,
  enableSingleSignOut: false,
  defaultRootRole: 'Viewer',
  defaultRootRoleId: null,
  emailDomains: null,
  acrValues: null,
  idTokenSigningAlgorithm: 'RS256',
  enableGroupSyncing: false,
  groupJsonPath: null,
  addGroupsScope: false,
  trustEmailClaim: false,
};

/** A claim name, or a dotted path into nested claims: `groups`, `realm_access.roles`, `https://example.com/groups`. */
export const GROUP_JSON_PATH = /^[^\s.](?:\S{0,198}[^\s.])?$/;

/**
 * The groups the claims hold at `path`: the claim named exactly so first (namespaced claims such
 * as Auth0's `https://example.com/groups` hold dots), else the dotted path through nested
 * objects (Keycloak's `realm_access.roles`). One string counts as one group; anything else in
 * the list (numbers, objects) is not a group name and is left out.
 *
 * No claim there means no groups: the person's browser carries the authorization request, and
 * could leave the groups scope out to keep memberships the provider has taken away. Only a token
 * that says its groups are elsewhere (Entra ID past 200 groups: `_claim_names.groups`, or
 * `hasgroups`) answers undefined, and leaves the memberships as they are.
 */
export function groupsAt(claims: Record<string, unknown>, path: string): string[] | undefined {
  const found = path in claims ? claims[path] : path.split('.').reduce<unknown>(
    (value, key) => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined),
    claims,
  );
  if (typeof found === 'string') return [found];
  if (Array.isArray(found)) return found.filter((group): group is string => typeof group === 'string');
  const elsewhere = claims._claim_names !== null && typeof claims._claim_names === 'object' && (path.split('.')[0] as string) in claims._claim_names;
  return elsewhere || claims.hasgroups === true ? undefined : [];
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The entries of a comma-separated domain list that are not domains (empty entries included). */
export function invalidEmailDomains(list: string): string[] {
  if (list.trim() === '') return [];
  return list.split(',').map((entry) => entry.trim()).filter((entry) => !DOMAIN.test(entry));
}

/**
 * A login under way, between the redirect to the provider and its callback. It is kept nowhere
 * on the service's side: it travels in a cookie sealed for the service alone (AES-256-GCM,
 * lib/secrets/secret-box.ts), so the browser carries it but can neither read nor change it, and
 * an unauthenticated start writes nothing.
 */
export interface LoginUnderWay {
  /** sha256 of the `state` sent to the provider: the callback's state must match it. */
  stateHash: string;
  nonce: string;
  codeVerifier: string;
  /** Where in the UI the person goes once logged in (a path under the service). */
  redirect: string;
  /** Epoch ms: the cookie's Max-Age says the same to the browser, this says it to the service. */
  expiresAt: number;
}

/** How long a person may spend at the provider's login page before the login must start again. */
export const LOGIN_UNDER_WAY_TTL_MS = 10 * 60 * 1000;

/** The purpose a login under way is sealed for (its own key, derived from the service's key material). */
export const LOGIN_UNDER_WAY_PURPOSE = 'oidc-login-under-way';

/** The cookie that carries a login under way, named per state (two tabs' logins side by side). */
export const LOGIN_BROWSER_COOKIE = 'unleash-oidc-login';
