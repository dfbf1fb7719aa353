import type { userRoutes } from '../../lib/api/routes/users.js';
import type { OperationsFor } from '../../lib/http/operation.js';
import { ROOT_ROLES } from '../../lib/roles/model.js';
import type { Services } from '../../lib/services.js';
import { integerId, toRoleWire, toUserWire } from '../commons/access-wire.js';

export const defineUserOperations = ({ users, config }: Services): OperationsFor<typeof userRoutes> => {
  const wire = (user: Parameters<typeof toUserWire>[0]) => toUserWire(user, config.unleashUrl);
  return {
    listUsers: async () => ({
      body: { users: (await users.list()).map(wire), rootRoles: ROOT_ROLES.map(toRoleWire) },
    }),
    createUser: async ({ body, caller }) => {
      const created = await users.create(body, caller.tokenName);
      return { body: wire(created), headers: { location: `user-admin/${created.id}` } };
    },
    getUser: async ({ params }) => ({ body: wire(await users.get(integerId(params.id, 'id'))) }),
    updateUser: async ({ params, body }) => ({ body: wire(await users.update(integerId(params.id, 'id'), body)) }),
    deleteUser: async ({ params }) => {
      await users.delete(integerId(params.id, 'id'));
      return {};
    },
    listRoles: async () => ({ body: { version: 1, roles: ROOT_ROLES.map(toRoleWire) } }),
  };
};
