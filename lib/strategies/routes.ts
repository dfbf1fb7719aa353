import { admin, defineRoutes } from '../http/route.js';
import {
  strategyTypeInputSchema,
  strategyTypeListSchema,
  strategyTypeSchema,
  strategyTypeUpdateSchema,
} from './schemas.js';

export const strategyTypeRoutes = defineRoutes('strategies', {
  listStrategyTypes: {
    method: 'GET', path: '/api/admin/strategies', access: admin('READ_STRATEGY'),
    status: 200, summary: 'List strategy types', response: strategyTypeListSchema,
  },
  createStrategyType: {
    method: 'POST', path: '/api/admin/strategies', access: admin('CREATE_STRATEGY'),
    status: 201, summary: 'E2. Create a strategy type', body: strategyTypeInputSchema, response: strategyTypeSchema,
  },
  getStrategyType: {
    method: 'GET', path: '/api/admin/strategies/{strategyName}',
    access: admin('READ_STRATEGY'), status: 200, summary: 'Get a strategy type',
    response: strategyTypeSchema,
  },
  updateStrategyType: {
    method: 'PUT', path: '/api/admin/strategies/{strategyName}',
    access: admin('UPDATE_STRATEGY'), status: 200, summary: 'Update a custom strategy type',
    body: strategyTypeUpdateSchema, response: strategyTypeSchema,
  },
  deleteStrategyType: {
    method: 'DELETE', path: '/api/admin/strategies/{strategyName}',
    access: admin('DELETE_STRATEGY'), status: 200,
    summary: 'Delete a custom strategy type that no feature uses (built-in types cannot be deleted)',
  },
  deprecateStrategyType: {
    method: 'POST', path: '/api/admin/strategies/{strategyName}/deprecate',
    access: admin('UPDATE_STRATEGY'), status: 200, summary: 'E21. Deprecate a strategy type',
  },
  reactivateStrategyType: {
    method: 'POST', path: '/api/admin/strategies/{strategyName}/reactivate',
    access: admin('UPDATE_STRATEGY'), status: 200, summary: 'Reactivate a deprecated strategy type',
  },
});
