import { admin, defineRoutes } from '../http/route.js';
import { deliveryListSchema, deliveryQuerySchema, integrationInputSchema, integrationListSchema, integrationSchema } from './schemas.js';

/**
 * Integrations (Unleash's addons): the providers and their configurations, and each one's
 * delivery log. Configuring them is an Admin's, as Unleash's root roles give CREATE_ADDON,
 * UPDATE_ADDON and DELETE_ADDON to Admins only.
 */
export const integrationRoutes = defineRoutes('instance', {
  listIntegrations: {
    method: 'GET', path: '/api/admin/addons', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'Integrations (addons) configured, their sensitive parameters masked, and the providers that can be configured',
    response: integrationListSchema,
  },
  createIntegration: {
    method: 'POST', path: '/api/admin/addons', access: admin('ADMIN'), status: 200,
    summary: 'Configure an integration of a provider; its sensitive parameters are stored sealed',
    body: integrationInputSchema, response: integrationSchema,
  },
  getIntegration: {
    method: 'GET', path: '/api/admin/addons/{id}', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'One integration, its sensitive parameters masked', response: integrationSchema,
  },
  updateIntegration: {
    method: 'PUT', path: '/api/admin/addons/{id}', access: admin('ADMIN'), status: 200,
    summary: 'Replace an integration; a sensitive parameter sent back masked (*****) keeps its value',
    body: integrationInputSchema, response: integrationSchema,
  },
  deleteIntegration: {
    method: 'DELETE', path: '/api/admin/addons/{id}', access: admin('ADMIN'), status: 200,
    summary: 'Delete an integration (404 when there is none); its queued deliveries are dropped',
  },
  listIntegrationDeliveries: {
    method: 'GET', path: '/api/admin/addons/{id}/events', access: admin('ADMIN'), status: 200,
    summary: "An integration's newest deliveries, each attempt with its state and details (limit at most 100; kept 7 days)",
    query: deliveryQuerySchema, response: deliveryListSchema,
  },
});
