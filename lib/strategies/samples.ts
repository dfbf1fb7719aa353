import { defineSamples } from '../samples.js';
import { strategyTypeRoutes } from './routes.js';

/** The custom strategy type `create` makes; built-in ones (`default`) cannot be changed. */
const TENANTS = { strategyName: 'sample-tenants-{{UNIQUE}}' };
const tenantsParameter = { name: 'tenants', type: 'list', description: 'Tenant ids', required: true };
const created = ['strategies/create'];

export const strategyTypeSamples = defineSamples(strategyTypeRoutes, {
  'create': {
    operation: 'createStrategyType',
    body: {
      name: TENANTS.strategyName,
      title: 'Tenants',
      description: 'On for the listed tenants',
      parameters: [tenantsParameter],
    },
    status: 201,
  },
  'create-wrong-content-type': {
    operation: 'createStrategyType',
    text: 'name=sample',
    headers: { 'content-type': 'text/plain' },
    status: 415,
  },
  'list': { operation: 'listStrategyTypes', status: 200 },
  'get': { operation: 'getStrategyType', params: TENANTS, status: 200, given: created },
  'update': {
    operation: 'updateStrategyType',
    params: TENANTS,
    body: {
      name: TENANTS.strategyName,
      title: 'Tenants',
      description: 'On for the listed tenant ids',
      parameters: [tenantsParameter],
    },
    status: 200,
    given: created,
  },
  'deprecate': { operation: 'deprecateStrategyType', params: TENANTS, status: 200, given: created },
  'reactivate': { operation: 'reactivateStrategyType', params: TENANTS, status: 200, given: ['strategies/deprecate'] },
  'delete': { operation: 'deleteStrategyType', params: TENANTS, status: 200, given: created },
  'delete-built-in': { operation: 'deleteStrategyType', params: { strategyName: 'default' }, status: 400 },
  'deprecate-without-token': {
    operation: 'deprecateStrategyType',
    params: { strategyName: 'default' },
    token: 'none',
    status: 401,
  },
});
