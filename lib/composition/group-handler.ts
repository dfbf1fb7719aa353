import { routeTable, routesOfGroup, type GroupOperations } from '../route-table.js';
import { SDK_GROUPS, type Group, type RouteSpec } from '../http/route.js';
import type { FunctionDefinition } from './function-handler.js';
import { createServices, type Services } from './services.js';
import { adminEdge } from './session-edge.js';

/** A group whose operations still read the whole composition root, as one slice of the group's route-table rows. */
export function wholeRootDefinition<G extends Group>(group: G, defineOperations: (services: Services) => GroupOperations<G>): FunctionDefinition {
  const routes: Record<string, RouteSpec> = Object.fromEntries(routesOfGroup(group).map((id) => [id, routeTable[id]]));
  return {
    group,
    compose: (c) => ({ [group]: { routes, operations: defineOperations(createServices(c)) as never } }),
    admin: SDK_GROUPS.has(group) ? undefined : adminEdge,
  };
}
