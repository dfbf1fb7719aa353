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
  updatedAt: string;
  updatedBy: string;
}

/** The settings as the API shows them: the secret masked, never in plain text. */
export type OidcSettingsView = Omit<OidcSettings, 'sealedSecret' | 'updatedAt' | 'updatedBy'> & { secret: string };

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
};

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The entries of a comma-separated domain list that are not domains (empty entries included). */
export function invalidEmailDomains(list: string): string[] {
  if (list.trim() === '') return [];
  return list.split(',').map((entry) => entry.trim()).filter((entry) => !DOMAIN.test(entry));
}
