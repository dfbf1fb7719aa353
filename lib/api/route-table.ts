import { route, type RouteSpec } from './route-types.js';
import { apiTokenRoutes } from './routes/api-tokens.js';
import { authSettingsRoutes } from './routes/auth-settings.js';
import { clientRoutes } from './routes/client.js';
import { contextFieldRoutes } from './routes/context-fields.js';
import { docsRoutes } from './routes/docs.js';
import { environmentRoutes } from './routes/environments.js';
import { featureEnvironmentRoutes } from './routes/feature-environments.js';
import { featureRelationRoutes } from './routes/feature-relations.js';
import { exportImportRoutes } from './routes/export-import.js';
import { stateRoutes } from './routes/state.js';
import { featureRoutes } from './routes/features.js';
import { groupRoutes } from './routes/groups.js';
import { instanceRoutes } from './routes/instance.js';
import { projectRoutes } from './routes/projects.js';
import { segmentRoutes } from './routes/segments.js';
import { signupTokenRoutes } from './routes/signup-tokens.js';
import { strategyTypeRoutes } from './routes/strategy-types.js';
import { tagTypeRoutes } from './routes/tag-types.js';
import { userRoutes } from './routes/users.js';

/**
 * The route table: the single map of the API. The CDK stack makes one API Gateway route per
 * row, the local server dispatches from it, each group's Lambda routes with it, and the auth
 * test walks it. Keys are operation ids; adding an endpoint is one row in `routes/<resource>.ts`
 * plus one handler function. Rows are kept by resource only to keep files small: this object
 * is the one table, and `mergeRows` refuses an operation id used twice.
 */
export const routeTable = mergeRows(
  instanceRoutes, docsRoutes, strategyTypeRoutes, apiTokenRoutes, clientRoutes,
  userRoutes, authSettingsRoutes, signupTokenRoutes, groupRoutes,
  projectRoutes, environmentRoutes, segmentRoutes, contextFieldRoutes, tagTypeRoutes,
  featureRoutes, featureEnvironmentRoutes, featureRelationRoutes, exportImportRoutes, stateRoutes, {
  // Unknown /api paths answer 404 NotFoundError, but only after authentication, as in Unleash.
  // API Gateway prefers every specific route above to this greedy one.
  unknownApiPath: route({
    method: 'ANY', path: '/api/{proxy+}', group: 'instance', access: { kind: 'any-token' }, status: 404,
    summary: 'Any other /api path: 404 after authentication', internal: true,
  }),
} as const satisfies Record<string, RouteSpec>);

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
