import { EVERYONE, GRANTED_BY, UNLEASH_PERMISSIONS } from './permissions.js';

/*
 * The permission catalogue the admin UI lists (GET /api/admin/permissions, a user's access
 * overview): apart from the role table, so the admin edge, which only checks a route's
 * permission, does not carry it.
 */

/** The level a permission applies at in Unleash: the whole instance, a project, or one environment of a project. */
export type PermissionType = 'root' | 'project' | 'environment';

/** Unleash's permissions that apply to one project (its `permissions` rows of type project). */
const PROJECT_PERMISSIONS: ReadonlySet<string> = new Set([
  'CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_FEATURE', 'MOVE_FEATURE_TOGGLE', 'UPDATE_FEATURE_VARIANTS', 'UPDATE_FEATURE_DEPENDENCY',
  'UPDATE_PROJECT', 'DELETE_PROJECT', 'READ_PROJECT_API_TOKEN', 'CREATE_PROJECT_API_TOKEN', 'DELETE_PROJECT_API_TOKEN',
]);
/** Unleash's permissions that apply to one environment of a project (type environment). */
const ENVIRONMENT_PERMISSIONS: ReadonlySet<string> = new Set([
  'CREATE_FEATURE_STRATEGY', 'UPDATE_FEATURE_STRATEGY', 'DELETE_FEATURE_STRATEGY',
  'UPDATE_FEATURE_ENVIRONMENT', 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
]);

export interface PermissionEntry {
  /** Its position in the catalogue: stable while the lists above keep their order; nothing stores it. */
  id: number;
  name: string;
  displayName: string;
  type: PermissionType;
}

/**
 * Every Unleash permission this service decides by: ADMIN, the roles' lists and those that
 * grant a route permission, each once, with the level Unleash gives it (GET
 * /api/admin/permissions, the user access overview). Built from the tables above, so the
 * catalogue cannot name a permission that no role or route knows.
 */
export const PERMISSION_CATALOGUE: readonly PermissionEntry[] = [
  ...new Set([
    ...Object.values(UNLEASH_PERMISSIONS).flat(),
    ...Object.values(GRANTED_BY).flatMap((grantedBy) => (grantedBy === EVERYONE ? [] : grantedBy)),
  ]),
].map((name, index) => ({ id: index + 1, name, displayName: displayNameOf(name), type: typeOf(name) }));

/** The catalogue's permissions of one level, in catalogue order. */
export const permissionsOfType = (type: PermissionType): PermissionEntry[] => PERMISSION_CATALOGUE.filter((entry) => entry.type === type);

function typeOf(name: string): PermissionType {
  if (ENVIRONMENT_PERMISSIONS.has(name)) return 'environment';
  return PROJECT_PERMISSIONS.has(name) ? 'project' : 'root';
}

/** `CREATE_FEATURE_STRATEGY` → `Create feature strategy`: a label for the UI's lists. */
function displayNameOf(name: string): string {
  const words = name.toLowerCase().split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
