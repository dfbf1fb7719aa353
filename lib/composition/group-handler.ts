import { routeTable, routesOfGroup } from '../route-table.js';
import { SDK_GROUPS, type Group, type RouteSpec } from '../http/route.js';
import { loadConfig, type AppConfig } from '../config.js';
import { clientAddress } from '../http/client-address.js';
import { originSecretSource } from '../secrets/origin-secret.js';
import { createServices, type Services } from './services.js';
import type { Authenticator, SessionAuthenticator } from '../http/authorize.js';
import type { Operation } from '../http/operation.js';
import type { GroupOperations } from '../route-table.js';
import { buildRouter, lazyHandler, type LambdaHandler } from '../http/router.js';
import { withCors } from '../frontend/cors.js';
import type { FrontendOrigins } from '../frontend/origins.js';

export type { LambdaHandler } from '../http/router.js';



/** One group's handler from its rows of the route table, on services that can authenticate. */
export function buildGroupHandler<G extends Group>(
  group: G,
  operations: GroupOperations<G>,
  services: {
    apiTokens: Authenticator;
    frontendOrigins: Pick<FrontendOrigins, 'allowed'>;
    sessions?: SessionAuthenticator;
    config?: Pick<AppConfig, 'cloudfrontOriginSecret' | 'cloudfrontOriginSecretArn'>;
  },
): LambdaHandler {
  const rows: Record<string, RouteSpec> = Object.fromEntries(routesOfGroup(group).map((id) => [id, routeTable[id]]));
  const handler = buildRouter(rows, operations as unknown as Record<string, Operation<RouteSpec>>, services.apiTokens, {
    keepsDeadline: !SDK_GROUPS.has(group),
    // The SDK and Frontend APIs take tokens only: their functions never read a cookie.
    sessions: SDK_GROUPS.has(group) ? undefined : services.sessions,
    // Behind CloudFront, the viewer the distribution vouches for with its secret (only the functions given it).
    clientAddress: clientAddress(services.config ? originSecretSource(services.config) : undefined),
  });
  return group === 'frontend' ? withCors(handler, services.frontendOrigins) : handler;
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
