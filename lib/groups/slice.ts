import type { Slice, SliceContext } from '../slice.js';
import { groupOperations } from './operations.js';
import type { GroupPorts } from './ports.js';
import { groupRoutes } from './routes.js';
import { GroupService } from './service.js';

/** User groups, their members and the root role they give (E1, E4). */
export function groupSlice({ config }: SliceContext, ports: GroupPorts) {
  const groups = new GroupService(ports.store, ports.users);
  return {
    routes: groupRoutes,
    operations: groupOperations({ groups, unleashUrl: config.unleashUrl }),
    groups,
  } satisfies Slice<typeof groupRoutes> & Record<string, unknown>;
}
