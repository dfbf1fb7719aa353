import type { Operation } from './http/operation.js';
import type { Group, RouteSpec } from './http/route.js';
import { apiTokenRoutes } from './tokens/routes.js';
import { oidcRoutes } from './oidc/routes.js';
import { clientRoutes } from './client/routes.js';
import { edgeRoutes } from './edge/routes.js';
import { frontendRoutes } from './frontend/routes.js';
import { frontendSettingsRoutes } from './frontend/settings-routes.js';
import { ofrepRoutes } from './ofrep/routes.js';
import { contextFieldRoutes } from './context-fields/routes.js';
import { docsRoutes } from './docs/routes.js';
import { environmentRoutes } from './environments/routes.js';
import { featureEnvironmentRoutes } from './features/environment-routes.js';
import { featureRelationRoutes } from './features/relation-routes.js';
import { featureSearchRoutes } from './features/search-routes.js';
import { featureUsageRoutes } from './features/usage-routes.js';
import { featureStageRoutes } from './features/stage-routes.js';
import { featureValidationRoutes } from './features/validation-routes.js';
import { transferRoutes } from './transfer/routes.js';
import { stateRoutes } from './state/routes.js';
import { featureRoutes } from './features/routes.js';
import { groupRoutes } from './groups/routes.js';
import { insightRoutes } from './insights/routes.js';
import { instanceRoutes } from './instance/routes.js';
import { projectRoutes } from './projects/routes.js';
import { segmentRoutes } from './segments/routes.js';
import { signupTokenRoutes } from './signup-tokens/routes.js';
import { strategyTypeRoutes } from './strategies/routes.js';
import { tagTypeRoutes } from './tag-types/routes.js';
import { userRoutes } from './users/routes.js';
import { eventRoutes } from './events/routes.js';
import { applicationRoutes } from './applications/routes.js';
import { playgroundRoutes } from './playground/routes.js';
import { authRoutes } from './auth/routes.js';
import { personalTokenRoutes } from './personal-access-tokens/routes.js';
import { maintenanceRoutes } from './maintenance/routes.js';
import { userSettingsRoutes } from './user-settings/routes.js';
import { integrationRoutes } from './integrations/routes.js';
import { favouriteRoutes } from './favourites/routes.js';
import { personalDashboardRoutes } from './personal-dashboard/routes.js';
import { projectStatusRoutes } from './project-status/routes.js';
import { unknownFlagRoutes } from './unknown-flags/routes.js';

/**
 * The route table: the single map of the API. The CDK stack makes one API Gateway route per
 * row, the local server dispatches from it, each group's Lambda routes with it, and the auth
 * test walks it. Keys are operation ids; adding an endpoint is one row in its resource's
 * `routes.ts` plus one handler function in the same folder's `operations.ts`. Rows live with
 * their resource; this object is the one table, and `mergeRows` refuses an operation id used twice.
 */
export const routeTable = mergeRows(
  instanceRoutes, insightRoutes, docsRoutes, strategyTypeRoutes, apiTokenRoutes, clientRoutes, edgeRoutes, frontendRoutes, ofrepRoutes,
  userRoutes, authRoutes, oidcRoutes, signupTokenRoutes, frontendSettingsRoutes, groupRoutes,
  projectRoutes, environmentRoutes, segmentRoutes, contextFieldRoutes, tagTypeRoutes,
  featureRoutes, featureEnvironmentRoutes, featureRelationRoutes, featureSearchRoutes, featureValidationRoutes, featureUsageRoutes, featureStageRoutes, transferRoutes, stateRoutes,
  eventRoutes, applicationRoutes, playgroundRoutes, personalTokenRoutes, maintenanceRoutes, userSettingsRoutes, favouriteRoutes, personalDashboardRoutes, projectStatusRoutes, integrationRoutes,
  unknownFlagRoutes,
);

export type RouteTable = typeof routeTable;
export type OperationId = keyof RouteTable;

export const operationIds = Object.keys(routeTable) as OperationId[];

export function routesOfGroup(group: RouteSpec['group']): OperationId[] {
  return operationIds.filter((id) => routeTable[id].group === group);
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

function mergeRows<Modules extends Record<string, RouteSpec>[]>(...modules: Modules): UnionToIntersection<Modules[number]> {
  const merged: Record<string, RouteSpec> = {};
  for (const rows of modules) {
    for (const [id, spec] of Object.entries(rows)) {
      if (id in merged) throw new Error(`Route table: operation id ${id} is used twice`);
      merged[id] = spec;
    }
  }
  return merged as UnionToIntersection<Modules[number]>;
}

type OperationIdsIn<G extends Group> = {
  [K in OperationId]: RouteTable[K]['group'] extends G ? K : never;
}[OperationId];

/** One handler function per route of the group: the compiler refuses a missing or extra one. */
export type GroupOperations<G extends Group> = { [K in OperationIdsIn<G>]: Operation<RouteTable[K]> };
