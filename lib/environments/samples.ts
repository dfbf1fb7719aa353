import { defineSamples } from '../samples.js';
import { environmentRoutes } from './routes.js';

export const environmentSamples = defineSamples(environmentRoutes, {
  'create-environment': {
    operation: 'createEnvironment',
    body: { name: 'sample-staging-{{UNIQUE}}', type: 'staging', sortOrder: 150 },
    status: 201,
  },
  'list-environments': { operation: 'listEnvironments', status: 200 },
  'list-project-environments': { operation: 'listProjectEnvironments', params: { projectId: 'default' }, status: 200 },
  'get-environment': {
    operation: 'getEnvironment',
    params: { name: 'sample-staging-{{UNIQUE}}' },
    status: 200,
    given: ['projects/create-environment'],
  },
});
