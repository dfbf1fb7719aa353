import { route, type RouteSpec } from './route-types.js';
import { apiTokenCreateSchema, apiTokenListSchema, apiTokenSchema } from './schemas/api-tokens.js';
import { healthSchema, uiConfigSchema } from './schemas/instance.js';
import {
  strategyTypeInputSchema,
  strategyTypeListSchema,
  strategyTypeSchema,
  strategyTypeUpdateSchema,
} from './schemas/strategy-types.js';

/**
 * The route table: the single map of the API. The CDK stack makes one API Gateway route per
 * row, the local server dispatches from it, each group's Lambda routes with it, and the auth
 * test walks it. Keys are operation ids; adding an endpoint is one row here plus one handler.
 */
export const routeTable = {
  // ── instance ───────────────────────────────────────────────────────────────
  health: route({
    method: 'GET', path: '/health', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: 'Liveness check; needs no token', response: healthSchema,
  }),
  getUiConfig: route({
    method: 'GET', path: '/api/admin/ui-config', group: 'instance', access: { kind: 'admin', permission: 'READ_UI_CONFIG' },
    status: 200, summary: 'E16. Get the UI configuration', response: uiConfigSchema,
  }),

  // ── strategies ─────────────────────────────────────────────────────────────
  listStrategyTypes: route({
    method: 'GET', path: '/api/admin/strategies', group: 'strategies', access: { kind: 'admin', permission: 'READ_STRATEGY' },
    status: 200, summary: 'List strategy types', response: strategyTypeListSchema,
  }),
  createStrategyType: route({
    method: 'POST', path: '/api/admin/strategies', group: 'strategies', access: { kind: 'admin', permission: 'CREATE_STRATEGY' },
    status: 201, summary: 'E2. Create a strategy type', body: strategyTypeInputSchema, response: strategyTypeSchema,
  }),
  getStrategyType: route({
    method: 'GET', path: '/api/admin/strategies/{strategyName}', group: 'strategies',
    access: { kind: 'admin', permission: 'READ_STRATEGY' }, status: 200, summary: 'Get a strategy type',
    response: strategyTypeSchema,
  }),
  updateStrategyType: route({
    method: 'PUT', path: '/api/admin/strategies/{strategyName}', group: 'strategies',
    access: { kind: 'admin', permission: 'UPDATE_STRATEGY' }, status: 200, summary: 'Update a custom strategy type',
    body: strategyTypeUpdateSchema, response: strategyTypeSchema,
  }),
  deprecateStrategyType: route({
    method: 'POST', path: '/api/admin/strategies/{strategyName}/deprecate', group: 'strategies',
    access: { kind: 'admin', permission: 'UPDATE_STRATEGY' }, status: 200, summary: 'E21. Deprecate a strategy type',
  }),
  reactivateStrategyType: route({
    method: 'POST', path: '/api/admin/strategies/{strategyName}/reactivate', group: 'strategies',
    access: { kind: 'admin', permission: 'UPDATE_STRATEGY' }, status: 200, summary: 'Reactivate a deprecated strategy type',
  }),

  // ── access ─────────────────────────────────────────────────────────────────
  listApiTokens: route({
    method: 'GET', path: '/api/admin/api-tokens', group: 'access', access: { kind: 'admin', permission: 'READ_API_TOKEN' },
    status: 200, summary: 'List API tokens (secrets are shown only as a hint)', response: apiTokenListSchema,
  }),
  createApiToken: route({
    method: 'POST', path: '/api/admin/api-tokens', group: 'access', access: { kind: 'admin', permission: 'CREATE_API_TOKEN' },
    status: 201, summary: 'Create an API token; the answer is the only time its secret is shown',
    body: apiTokenCreateSchema, response: apiTokenSchema,
  }),
  deleteApiToken: route({
    method: 'DELETE', path: '/api/admin/api-tokens/{token}', group: 'access',
    access: { kind: 'admin', permission: 'DELETE_API_TOKEN' }, status: 200,
    summary: 'Delete an API token, named by its secret or its tokenId',
  }),

  // ── fallback ───────────────────────────────────────────────────────────────
  // Unknown /api paths answer 404 NotFoundError, but only after authentication, as in Unleash.
  // API Gateway prefers every specific route above to this greedy one.
  unknownApiPath: route({
    method: 'ANY', path: '/api/{proxy+}', group: 'instance', access: { kind: 'any-token' }, status: 404,
    summary: 'Any other /api path: 404 after authentication', internal: true,
  }),
} as const satisfies Record<string, RouteSpec>;

export type RouteTable = typeof routeTable;
export type OperationId = keyof RouteTable;

export const operationIds = Object.keys(routeTable) as OperationId[];

export function routesOfGroup(group: RouteSpec['group']): OperationId[] {
  return operationIds.filter((id) => routeTable[id].group === group);
}
