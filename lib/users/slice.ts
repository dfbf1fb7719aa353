import type { Slice, SliceContext } from '../slice.js';
import { userOperations } from './operations.js';
import type { UserPorts } from './ports.js';
import { userRoutes } from './routes.js';
import { UserService } from './service.js';

/** Users, their root roles and the permission catalogue (E1). */
export function userSlice({ config, now }: SliceContext, ports: UserPorts) {
  // Deleting a user ends their memberships in the same write: the groups they are in.
  const users = new UserService(ports.store, {
    groupIdsOf: async (userId) => (await ports.groups()).filter((group) => group.members.some((m) => m.userId === userId)).map((group) => group.id),
  }, now);
  return {
    routes: userRoutes,
    operations: userOperations({ users, ports, unleashUrl: config.unleashUrl }),
    users,
  } satisfies Slice<typeof userRoutes> & Record<string, unknown>;
}
