import type { UserPorts } from './ports.js';
import type { userRoutes } from './routes.js';
import type { UserService } from './service.js';
import type { OperationsFor } from '../http/operation.js';
import { rootRoleById, ROOT_ROLES } from '../roles/model.js';
import { strongestRole } from '../roles/permissions.js';
import { groupRootRolesOf } from '../sessions/group-roles.js';
import { checkPasswordRules } from './password.js';
import { isUserCaller } from '../http/caller.js';
import { toAccessOverviewWire, toBaseGroupWire, toBaseUserWire, toInactiveUserWire, toPermissionCatalogueWire, toRoleWire, toUserWire } from './wire.js';

export interface UserOperationsOf {
  users: UserService;
  ports: Pick<UserPorts, 'groups' | 'environmentNames'>;
  unleashUrl: string;
}

export const userOperations = ({ users, ports, unleashUrl }: UserOperationsOf): OperationsFor<typeof userRoutes> => {
  const wire = (user: Parameters<typeof toUserWire>[0]) => toUserWire(user, unleashUrl);
  return {
    listUsers: async () => ({
      body: { users: (await users.list()).map(wire), rootRoles: ROOT_ROLES.map(toRoleWire) },
    }),
    createUser: async ({ body, caller }) => {
      const created = await users.create(body, caller.tokenName);
      return { body: wire(created), headers: { location: `user-admin/${created.id}` } };
    },
    getUser: async ({ params }) => ({ body: wire(await users.get(params.id)) }),
    updateUser: async ({ params, body, caller }) => ({ body: wire(await users.update(params.id, body, caller.tokenName)) }),
    deleteUser: async ({ params, caller }) => {
      await users.delete(params.id, caller.tokenName);
      return {};
    },
    changeUserPassword: async ({ params, body }) => {
      await users.setPassword(params.id, body.password);
      return {};
    },
    validateUserPassword: async ({ body }) => {
      checkPasswordRules(body.password);
      return {};
    },
    listUsersAndGroups: async () => {
      const [all, groups] = await Promise.all([users.list(), ports.groups()]);
      // A group counts the members whose user still exists.
      const existing = new Map(all.map((user) => [user.id, user]));
      return { body: { users: all.map(toBaseUserWire), groups: groups.map((group) => toBaseGroupWire({ group, users: existing })) } };
    },
    getAdminCount: async () => ({ body: await users.adminCount() }),
    listInactiveUsers: async () => ({ body: { version: 1, inactiveUsers: (await users.inactive()).map(toInactiveUserWire) } }),
    deleteInactiveUsers: async ({ body, caller }) => {
      await users.deleteInactive(body.ids, caller.tokenName, isUserCaller(caller) ? caller.userId : undefined);
      return {};
    },
    getUserAccessOverview: async ({ params, query }) => {
      const [user, groups, known] = await Promise.all([users.get(params.id), ports.groups(), ports.environmentNames()]);
      // What the user may do is decided by the stronger of their own and their groups' root roles, as a session is.
      const role = strongestRole([user.rootRole, ...groupRootRolesOf(groups, user.id)]);
      const environment = query.environment !== undefined && known.includes(query.environment) ? query.environment : undefined;
      const own = rootRoleById(user.rootRole);
      if (!own) throw new Error(`User ${user.id} has an unknown root role ${user.rootRole}`);
      const { isAPI: _isAPI, ...shown } = wire(user);
      return { body: { overview: toAccessOverviewWire(role, environment), user: shown, rootRole: toRoleWire(own), projectRoles: [] } };
    },
    listPermissions: async () => ({
      body: toPermissionCatalogueWire(await ports.environmentNames()),
    }),
    listRoles: async () => ({ body: { version: 1, roles: ROOT_ROLES.map(toRoleWire) } }),
  };
};
