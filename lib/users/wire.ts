import type * as z from 'zod';
import type { GroupView } from '../groups/service.js';
import { permissionsOfType, type PermissionType } from '../roles/catalogue.js';
import { roleHolds } from '../roles/permissions.js';
import type { accessOverviewSchema, inactiveUsersSchema, permissionCatalogueSchema, RoleWire, UserWire, usersAndGroupsSchema } from './schemas.js';
import type { RootRole, RootRoleId } from '../roles/model.js';
import { imageUrlOf, signupUrl, type User } from './model.js';

/**
 * The User resource, shared by the `access` and `groups` functions. `inviteLink` is the signup
 * link a user joined through; no e-mail is ever sent, so `emailSent` is false.
 */
export function toUserWire(user: User, unleashUrl: string): UserWire {
  return {
    id: user.id,
    isAPI: false,
    name: user.name,
    ...(user.email === null ? {} : { email: user.email }),
    username: user.username,
    imageUrl: imageUrlOf(user),
    ...(user.signupToken === null ? {} : { inviteLink: signupUrl(unleashUrl, user.signupToken) }),
    loginAttempts: user.loginAttempts,
    emailSent: false,
    rootRole: user.rootRole,
    seenAt: user.seenAt,
    createdAt: user.createdAt,
    accountType: 'User',
    permissions: [],
  };
}

export function toRoleWire(role: RootRole): RoleWire {
  return { id: role.id, type: role.type, name: role.name, description: role.description };
}


/** A user as the access dialogs list them (Unleash's usersGroupsBaseSchema): no role, login or invite details. */
export function toBaseUserWire(user: User): z.input<typeof usersAndGroupsSchema>['users'][number] {
  return { id: user.id, name: user.name, username: user.username, ...(user.email === null ? {} : { email: user.email }), accountType: 'User' };
}

/** A group as the access dialogs list it: members counted, those whose user is gone left out. */
export function toBaseGroupWire({ group, users }: GroupView): z.input<typeof usersAndGroupsSchema>['groups'][number] {
  const userCount = group.members.filter((member) => users.has(member.userId)).length;
  return { id: group.id, name: group.name, userCount, rootRole: group.rootRole };
}

/** Unleash's inactive user; no personal access tokens exist here, so none was seen. */
export function toInactiveUserWire(user: User): z.input<typeof inactiveUsersSchema>['inactiveUsers'][number] {
  const { accountType: _accountType, ...named } = toBaseUserWire(user);
  return { ...named, seenAt: user.seenAt, createdAt: user.createdAt, patSeenAt: null };
}

/**
 * Unleash's access overview: every permission with whether this root role holds it. A root role
 * decides alike in every project and environment here; the environment's list is empty unless
 * one that exists is named, as in Unleash.
 */
export function toAccessOverviewWire(role: RootRoleId, environment: string | undefined): z.input<typeof accessOverviewSchema>['overview'] {
  const checked = (type: PermissionType) =>
    permissionsOfType(type).map((entry) => ({
      ...entry, ...(type === 'environment' ? { environment } : {}), hasPermission: roleHolds(role, entry.name),
    }));
  return { root: checked('root'), project: checked('project'), environment: environment === undefined ? [] : checked('environment') };
}

/** The permission catalogue as Unleash lists it: environment permissions once per environment, naming it. */
export function toPermissionCatalogueWire(environmentNames: readonly string[]): z.input<typeof permissionCatalogueSchema> {
  return {
    version: 1,
    permissions: {
      root: permissionsOfType('root'),
      project: permissionsOfType('project'),
      environments: environmentNames.map((name) => ({
        name, permissions: permissionsOfType('environment').map((entry) => ({ ...entry, environment: name })),
      })),
    },
  };
}
