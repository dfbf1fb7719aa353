import type { userRoutes } from './routes.js';
import type { OperationsFor } from '../http/operation.js';
import { ROOT_ROLES } from '../roles/model.js';
import type { Services } from '../composition/services.js';
import { toRoleWire, toUserWire } from './wire.js';

export const userOperations = ({ users, config }: Services): OperationsFor<typeof userRoutes> => {
  const wire = (user: Parameters<typeof toUserWire>[0]) => toUserWire(user, config.unleashUrl);
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
    listRoles: async () => ({ body: { version: 1, roles: ROOT_ROLES.map(toRoleWire) } }),
  };
};
