import { route, type RouteSpec } from '../route-types.js';
import {
  strategyTypeInputSchema,
  strategyTypeListSchema,
  strategyTypeSchema,
  strategyTypeUpdateSchema,
} from '../schemas/strategy-types.js';

export const strategyTypeRoutes = {
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
  deleteStrategyType: route({
    method: 'DELETE', path: '/api/admin/strategies/{strategyName}', group: 'strategies',
    access: { kind: 'admin', permission: 'DELETE_STRATEGY' }, status: 200,
    summary: 'Delete a custom strategy type that no feature uses (built-in types cannot be deleted)',
  }),
  deprecateStrategyType: route({
    method: 'POST', path: '/api/admin/strategies/{strategyName}/deprecate', group: 'strategies',
    access: { kind: 'admin', permission: 'UPDATE_STRATEGY' }, status: 200, summary: 'E21. Deprecate a strategy type',
  }),
  reactivateStrategyType: route({
    method: 'POST', path: '/api/admin/strategies/{strategyName}/reactivate', group: 'strategies',
    access: { kind: 'admin', permission: 'UPDATE_STRATEGY' }, status: 200, summary: 'Reactivate a deprecated strategy type',
  }),
} as const satisfies Record<string, RouteSpec>;
