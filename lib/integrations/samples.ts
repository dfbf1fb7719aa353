import { defineSamples } from '../samples.js';
import { integrationRoutes } from './routes.js';

/** Sample receivers are on example.com (a public name that takes no traffic); a delivery to it fails and is retried. */
export const integrationSamples = defineSamples(integrationRoutes, {
  'create-integration': {
    operation: 'createIntegration',
    body: {
      provider: 'webhook',
      description: 'sample-{{UNIQUE}}',
      enabled: true,
      parameters: { url: 'https://example.com/hooks/toggles', signingSecret: 'sample-signing-secret' },
      events: ['feature-created', 'feature-environment-enabled', 'feature-environment-disabled'],
      projects: ['default'],
      environments: [],
    },
    status: 200,
    provides: { INTEGRATION_ID: 'id' },
  },
  'create-integration-unknown-provider': {
    operation: 'createIntegration',
    body: { provider: 'carrier-pigeon', parameters: {}, events: [] },
    status: 400,
  },
  'list-integrations': { operation: 'listIntegrations', status: 200 },
  'get-integration': { operation: 'getIntegration', params: { id: '{{INTEGRATION_ID}}' }, status: 200, given: ['instance/create-integration'] },
  'update-integration': {
    operation: 'updateIntegration',
    params: { id: '{{INTEGRATION_ID}}' },
    body: { provider: 'webhook', enabled: false, parameters: { url: '*****', signingSecret: '*****' }, events: ['feature-created'] },
    status: 200,
    given: ['instance/create-integration'],
  },
  'delete-integration': { operation: 'deleteIntegration', params: { id: '{{INTEGRATION_ID}}' }, status: 200, given: ['instance/create-integration'] },
  'integration-deliveries': {
    operation: 'listIntegrationDeliveries',
    params: { id: '{{INTEGRATION_ID}}' },
    query: { limit: '20' },
    status: 200,
    given: ['instance/create-integration'],
  },
});
