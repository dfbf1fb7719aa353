import { defineSamples } from '../samples.js';
import { apiTokenRoutes } from './routes.js';

export const apiTokenSamples = defineSamples(apiTokenRoutes, {
  'create-client-token': {
    operation: 'createApiToken',
    body: {
      tokenName: 'sample-sdk-{{UNIQUE}}',
      type: 'client',
      environment: 'development',
      projects: ['default'],
    },
    status: 201,
    // The OFREP samples evaluate with it (an admin token is refused there).
    provides: { CLIENT_TOKEN: 'secret' },
  },
  'list-tokens': { operation: 'listApiTokens', status: 200 },
  'list-project-tokens': { operation: 'listProjectApiTokens', params: { projectId: 'default' }, status: 200 },
  'delete-token': { operation: 'deleteApiToken', params: { token: '0123456789abcdef' }, status: 200 },
  'create-project-token': {
    operation: 'createProjectApiToken',
    params: { projectId: 'default' },
    body: { tokenName: 'sample-project-sdk-{{UNIQUE}}', type: 'frontend', environment: 'development' },
    status: 201,
  },
  'import-client-token': {
    operation: 'createApiToken',
    body: {
      tokenName: 'sample-imported-{{UNIQUE}}',
      type: 'backend',
      environment: 'development',
      projects: ['default'],
      secret: 'default:development.v2_{{UNIQUE}}',
    },
    status: 201,
  },
  'delete-project-token': { operation: 'deleteProjectApiToken', params: { projectId: 'default', token: '0123456789abcdef' }, status: 404 },
});
