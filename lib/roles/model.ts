/**
 * The root roles. Unleash seeds them in this order on a fresh install, so their ids are 1, 2
 * and 3 there too; we fix them as constants because they are part of the wire (a user's
 * `rootRole`, a group's `rootRole`, `defaultRootRoleId` of the OIDC settings) and there are no
 * custom roles to make them data.
 */
export const ROOT_ROLE = { Admin: 1, Editor: 2, Viewer: 3 } as const;

export type RootRoleName = keyof typeof ROOT_ROLE;
export type RootRoleId = (typeof ROOT_ROLE)[RootRoleName];

export const ROOT_ROLE_NAMES = ['Admin', 'Editor', 'Viewer'] as const satisfies readonly RootRoleName[];

export interface RootRole {
  id: RootRoleId;
  name: RootRoleName;
  type: 'root';
  description: string;
}

export const ROOT_ROLES: readonly RootRole[] = [
  { id: ROOT_ROLE.Admin, name: 'Admin', type: 'root', description: 'Every operation, including users, groups, tokens and login settings.' },
  { id: ROOT_ROLE.Editor, name: 'Editor', type: 'root', description: 'Creates and changes features, strategies and projects; does not manage users or roles.' },
  { id: ROOT_ROLE.Viewer, name: 'Viewer', type: 'root', description: 'Reads root resources; can be made a member of single projects.' },
];

export function rootRoleById(id: number): RootRole | undefined {
  return ROOT_ROLES.find((role) => role.id === id);
}

/** Unleash accepts a root role as its id, its id as a string, or its name (case as written). */
export function resolveRootRole(value: number | string): RootRole | undefined {
  if (typeof value === 'number') return rootRoleById(value);
  if (/^\d+$/.test(value)) return rootRoleById(Number(value));
  return ROOT_ROLES.find((role) => role.name === value);
}

/**
 * The Unleash permissions the admin API's routes require: a closed set, so a misspelt one does
 * not compile. A refused caller is told which one it lacks (403 NoAccessError), as Unleash does.
 */
export const PERMISSIONS = [
  'ADMIN',
  'READ_UI_CONFIG',
  'READ_FEATURE', 'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE',
  'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_DEPENDENCY',
  'READ_PROJECT', 'CREATE_PROJECT', 'UPDATE_PROJECT', 'DELETE_PROJECT',
  'READ_ENVIRONMENT', 'CREATE_ENVIRONMENT',
  'READ_STRATEGY', 'CREATE_STRATEGY', 'UPDATE_STRATEGY', 'DELETE_STRATEGY',
  'READ_SEGMENT', 'CREATE_SEGMENT', 'UPDATE_SEGMENT', 'DELETE_SEGMENT',
  'READ_CONTEXT_FIELD', 'CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD',
  'READ_TAG_TYPE', 'CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE', 'DELETE_TAG_TYPE',
  'READ_API_TOKEN', 'CREATE_API_TOKEN', 'DELETE_API_TOKEN', 'UPDATE_CORS',
  'UPDATE_APPLICATION',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
