import { BODY_LIMITS } from '../limits.js';
import { FRONTEND_TOKEN, PUBLIC, defineRoutes } from '../http/route.js';
import { clientMetricsSchema, clientRegisterSchema } from '../client/schemas.js';
import { frontendContextBodySchema, frontendTogglesSchema } from './schemas.js';

/**
 * The Frontend API: what browser and mobile SDKs (unleash-proxy-client and its React, Vue,
 * Angular, iOS, Android and Flutter kin) call on every page view, with a frontend token. Its own
 * function: the busiest path, and the only one carrying the evaluation engine. Every answer
 * carries CORS headers for the allowed origins (lib/frontend/cors.ts); preflights need no token.
 */
export const frontendRoutes = defineRoutes('frontend', {
  getFrontendFeatures: {
    method: 'GET', path: '/api/frontend', access: FRONTEND_TOKEN, status: 200,
    summary: 'The enabled toggles, with their variants, for the context in the query string (ETag; 304 when If-None-Match matches)',
    response: frontendTogglesSchema,
  },
  postFrontendFeatures: {
    method: 'POST', path: '/api/frontend', access: FRONTEND_TOKEN, status: 200,
    summary: 'The enabled toggles, with their variants, for the context in the body ({"context": {...}})',
    body: frontendContextBodySchema, response: frontendTogglesSchema,
  },
  reportFrontendMetrics: {
    method: 'POST', path: '/api/frontend/client/metrics', access: FRONTEND_TOKEN, status: 200,
    summary: 'A frontend SDK reports evaluation counts (200, no body)', body: clientMetricsSchema, lenientBody: 'capped',
    maxBodyBytes: BODY_LIMITS.batch,
  },
  registerFrontendClient: {
    method: 'POST', path: '/api/frontend/client/register', access: FRONTEND_TOKEN, status: 200,
    summary: 'A frontend SDK registers its application (200, no body)', body: clientRegisterSchema, lenientBody: true,
  },
  preflightFrontend: {
    method: 'OPTIONS', path: '/api/frontend', access: PUBLIC, status: 204,
    summary: 'CORS preflight of the Frontend API (no token; CORS headers only for an allowed origin)',
  },
  preflightFrontendPath: {
    method: 'OPTIONS', path: '/api/frontend/{proxy+}', access: PUBLIC, status: 204,
    summary: 'CORS preflight of the Frontend API’s other paths', internal: true,
  },
});
