import * as z from 'zod';
import { GROUP_JSON_PATH, ID_TOKEN_SIGNING_ALGORITHMS, invalidEmailDomains } from './model.js';
import { ROOT_ROLE_NAMES } from '../roles/model.js';

/** E19's body. The secret is checked for presence only; it is never echoed in an error. */
export const oidcSettingsInputSchema = z.object({
  enabled: z.boolean().optional(),
  // The admin UI sends an empty field as ''; that means no URL.
  discoverUrl: z.preprocess((value) => (value === '' ? undefined : value), z.url({ protocol: /^https?$/ }).optional()),
  clientId: z.string().trim().min(1),
  secret: z.string().min(1),
  autoCreate: z.boolean().optional(),
  enableSingleSignOut: z.boolean().optional(),
  defaultRootRole: z.enum(ROOT_ROLE_NAMES).optional(),
  defaultRootRoleId: z.int().optional(),
  emailDomains: z
    .string()
    .refine((list) => invalidEmailDomains(list).length === 0, {
      error: 'must be a comma-separated list of domains, such as example.com,example.org',
    })
    .optional(),
  acrValues: z.string().optional(),
  idTokenSigningAlgorithm: z.enum(ID_TOKEN_SIGNING_ALGORITHMS).optional(),
  enableGroupSyncing: z.boolean().optional(),
  // The admin UI sends an empty field as ''; that means no path.
  groupJsonPath: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().trim().regex(GROUP_JSON_PATH, { error: 'must be a claim name or a dotted path into the claims, such as groups or realm_access.roles, without spaces' }).optional(),
  ),
  addGroupsScope: z.boolean().optional(),
  trustEmailClaim: z.boolean().optional(),
}).refine((settings) => !settings.enabled || settings.discoverUrl !== undefined, {
  path: ['discoverUrl'], error: 'is required while OIDC is enabled: the URL of the provider\'s discovery document',
}).refine((settings) => !settings.enableGroupSyncing || settings.groupJsonPath !== undefined, {
  path: ['groupJsonPath'], error: 'is required while group syncing is on: where the ID token holds the groups, such as groups',
});
export type OidcSettingsInput = z.infer<typeof oidcSettingsInputSchema>;

/** The settings as answered: `secret` is masked whenever one is stored, never in plain text. */
export const oidcSettingsSchema = z.object({
  enabled: z.boolean(),
  discoverUrl: z.string().optional(),
  clientId: z.string(),
  secret: z.string(),
  autoCreate: z.boolean(),
  enableSingleSignOut: z.boolean(),
  defaultRootRole: z.string(),
  defaultRootRoleId: z.int().optional(),
  emailDomains: z.string().optional(),
  acrValues: z.string().optional(),
  idTokenSigningAlgorithm: z.string(),
  enableGroupSyncing: z.boolean(),
  groupJsonPath: z.string().optional(),
  addGroupsScope: z.boolean(),
  /** Whether an ID token's e-mail counts as verified when it has no email_verified claim (default false). */
  trustEmailClaim: z.boolean(),
});
export type OidcSettingsWire = z.infer<typeof oidcSettingsSchema>;

/** The start of a login: `redirect` is where in the UI to land afterwards (the login page passes it on). */
export const oidcLoginQuerySchema = z.object({
  // Any text: one that is not a path of this service lands on the UI's start (lib/oidc/login.ts).
  redirect: z.string().optional(),
});
