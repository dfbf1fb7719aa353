import { routeTable, routesOfGroup } from '../route-table.js';
import type { Group, RouteSpec } from '../http/route.js';
import { loadConfig } from '../config.js';
import { createServices, type Services } from './services.js';
import type { Authenticator } from '../http/authorize.js';
import type { Operation } from '../http/operation.js';
import type { GroupOperations } from '../route-table.js';
import { buildRouter, lazyHandler, type LambdaHandler } from '../http/router.js';

export type { LambdaHandler } from '../http/router.js';

/**
 * The SDK API runs without the request deadline: it writes only usage (metrics, registrations),
 * and the async context would cost every poll (RouterOptions.keepsDeadline).
 */
const SDK_GROUP: Group = 'client';

/** One group's handler from its rows of the route table, on services that can authenticate. */
export function buildGroupHandler<G extends Group>(
  group: G,
  operations: GroupOperations<G>,
  services: { apiTokens: Authenticator },
): LambdaHandler {
  const rows: Record<string, RouteSpec> = Object.fromEntries(routesOfGroup(group).map((id) => [id, routeTable[id]]));
  return buildRouter(rows, operations as unknown as Record<string, Operation<RouteSpec>>, services.apiTokens, {
    keepsDeadline: group !== SDK_GROUP,
  });
}

/**
 * The Lambda entry point of a group on the whole composition root. Configuration is read and
 * services are built on the first invocation, not at import time. The SDK API has a slimmer
 * entry of its own (functions/client/handler.ts).
 */
export function groupHandler<G extends Group>(
  group: G,
  defineOperations: (services: Services) => GroupOperations<G>,
): LambdaHandler {
  return lazyHandler(() => {
    const services = createServices(loadConfig(process.env));
    return buildGroupHandler(group, defineOperations(services), services);
  });
}
