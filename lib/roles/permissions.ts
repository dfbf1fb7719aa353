import { ROOT_ROLE, type Permission, type RootRoleId, type RootRoleName } from './model.js';

/**
 * What each root role may do: the one place people's rights are decided. The names are
 * Unleash's, as its migrations seed `role_permission` for the predefined root roles (7.6):
 * Admin holds ADMIN, which stands for every permission; Editor the list below; Viewer nothing,
 * because Unleash guards no read of root resources (its GET routes need no permission). The
 * same list answers `permissions` in GET /api/admin/user, so the UI greys out what the server
 * refuses. Editor's strategy, environment and variant permissions are seeded per environment
 * there; with no environment named they hold in every environment, as the UI reads them.
 */
export const UNLEASH_PERMISSIONS: Record<RootRoleName, readonly string[]> = {
  Admin: ['ADMIN'],
  Editor: [
    'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'MOVE_FEATURE_TOGGLE',
    'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY',
    'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', 'UPDATE_FEATURE_DEPENDENCY',
    'CREATE_PROJECT', 'UPDATE_PROJECT', 'DELETE_PROJECT',
    'CREATE_STRATEGY', 'UPDATE_STRATEGY', 'DELETE_STRATEGY',
    'CREATE_SEGMENT', 'UPDATE_SEGMENT', 'DELETE_SEGMENT',
    'CREATE_CONTEXT_FIELD', 'UPDATE_CONTEXT_FIELD', 'DELETE_CONTEXT_FIELD',
    'CREATE_TAG_TYPE', 'UPDATE_TAG_TYPE', 'DELETE_TAG_TYPE',
    'CREATE_ADDON', 'UPDATE_ADDON', 'DELETE_ADDON', 'UPDATE_APPLICATION',
    'READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN',
    'READ_PROJECT_API_TOKEN', 'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN',
  ],
  Viewer: [],
};

/** Anyone logged in: Unleash's reads of root resources need no permission. */
export const EVERYONE = 'everyone';

/**
 * Which of Unleash's permissions grant each route permission of ours. Ours are coarser in two
 * places: one READ_API_TOKEN for Unleash's per-type reads, and one CREATE_/DELETE_API_TOKEN for
 * every token type. Editor holds no root-level token creation in Unleash (only project tokens,
 * which this service has no route for), and the one permission here would also let it make an
 * admin token, so creating and deleting tokens stays with ADMIN. CREATE_ENVIRONMENT and
 * UPDATE_CORS are seeded to no role: ADMIN only, as in Unleash.
 */
export const GRANTED_BY: Record<Permission, typeof EVERYONE | readonly string[]> = {
  ADMIN: [],
  READ_UI_CONFIG: EVERYONE,
  READ_FEATURE: EVERYONE,
  READ_PROJECT: EVERYONE,
  READ_ENVIRONMENT: EVERYONE,
  READ_STRATEGY: EVERYONE,
  READ_SEGMENT: EVERYONE,
  READ_CONTEXT_FIELD: EVERYONE,
  READ_TAG_TYPE: EVERYONE,
  CREATE_FEATURE: ['CREATE_FEATURE'],
  UPDATE_FEATURE: ['UPDATE_FEATURE'],
  DELETE_FEATURE: ['DELETE_FEATURE'],
  CREATE_FEATURE_STRATEGY: ['CREATE_FEATURE_STRATEGY'],
  UPDATE_FEATURE_STRATEGY: ['UPDATE_FEATURE_STRATEGY'],
  DELETE_FEATURE_STRATEGY: ['DELETE_FEATURE_STRATEGY'],
  UPDATE_FEATURE_ENVIRONMENT: ['UPDATE_FEATURE_ENVIRONMENT'],
  UPDATE_FEATURE_VARIANTS: ['UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS'],
  UPDATE_FEATURE_DEPENDENCY: ['UPDATE_FEATURE_DEPENDENCY'],
  CREATE_PROJECT: ['CREATE_PROJECT'],
  UPDATE_PROJECT: ['UPDATE_PROJECT'],
  DELETE_PROJECT: ['DELETE_PROJECT'],
  CREATE_ENVIRONMENT: [],
  CREATE_STRATEGY: ['CREATE_STRATEGY'],
  UPDATE_STRATEGY: ['UPDATE_STRATEGY'],
  DELETE_STRATEGY: ['DELETE_STRATEGY'],
  CREATE_SEGMENT: ['CREATE_SEGMENT'],
  UPDATE_SEGMENT: ['UPDATE_SEGMENT'],
  DELETE_SEGMENT: ['DELETE_SEGMENT'],
  CREATE_CONTEXT_FIELD: ['CREATE_CONTEXT_FIELD'],
  UPDATE_CONTEXT_FIELD: ['UPDATE_CONTEXT_FIELD'],
  DELETE_CONTEXT_FIELD: ['DELETE_CONTEXT_FIELD'],
  CREATE_TAG_TYPE: ['CREATE_TAG_TYPE'],
  UPDATE_TAG_TYPE: ['UPDATE_TAG_TYPE'],
  DELETE_TAG_TYPE: ['DELETE_TAG_TYPE'],
  READ_API_TOKEN: ['READ_CLIENT_API_TOKEN', 'READ_FRONTEND_API_TOKEN'],
  CREATE_API_TOKEN: [],
  DELETE_API_TOKEN: [],
  UPDATE_CORS: [],
  UPDATE_APPLICATION: ['UPDATE_APPLICATION'],
};

const ROLE_NAME_BY_ID = new Map<RootRoleId, RootRoleName>(
  (Object.entries(ROOT_ROLE) as [RootRoleName, RootRoleId][]).map(([name, id]) => [id, name]),
);

/** Unleash's permissions of a root role, as GET /api/admin/user lists them. */
export function permissionsOf(role: RootRoleId): readonly string[] {
  return UNLEASH_PERMISSIONS[ROLE_NAME_BY_ID.get(role) ?? 'Viewer'];
}

/** Whether a user of this root role may call a route that requires `permission`. */
export function roleGrants(role: RootRoleId, permission: Permission): boolean {
  if (roleHolds(role, 'ADMIN')) return true;
  const grantedBy = GRANTED_BY[permission];
  return grantedBy === EVERYONE || grantedBy.some((name) => roleHolds(role, name));
}

/**
 * The stronger of several root roles: a user gets the higher of their own and their groups'
 * (Admin above Editor above Viewer; the ids count down with power).
 */
export function strongestRole(roles: readonly RootRoleId[]): RootRoleId {
  return roles.reduce<RootRoleId>((best, role) => (role < best ? role : best), ROOT_ROLE.Viewer);
}

/** Whether a holder of this root role has this Unleash permission (ADMIN has every one). */
export function roleHolds(role: RootRoleId, permission: string): boolean {
  const held = permissionsOf(role);
  return held.includes('ADMIN') || held.includes(permission);
}
