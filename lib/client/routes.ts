import { BODY_LIMITS } from '../limits.js';
import { SDK_TOKEN, defineRoutes } from '../http/route.js';
import { errorSchema } from '../http/schemas.js';
import {
  clientDeltaSchema,
  clientFeatureSchema,
  clientFeaturesQuerySchema,
  clientFeaturesSchema,
  clientMetricsSchema,
  clientRegisterSchema,
} from './schemas.js';

/**
 * The SDK API: what the official SDKs poll and report to. Client, backend and admin tokens
 * alike; the token record decides what is served.
 */
export const clientRoutes = defineRoutes('client', {
  getClientFeatures: {
    method: 'GET', path: '/api/client/features', access: SDK_TOKEN, status: 200,
    summary: 'E17. Get all toggles of the token’s scope (ETag; 304 when If-None-Match matches)',
    query: clientFeaturesQuerySchema, response: clientFeaturesSchema,
  },
  getClientFeature: {
    method: 'GET', path: '/api/client/features/{featureName}', access: SDK_TOKEN, status: 200,
    summary: 'E18. Get one toggle of the token’s scope (deprecated for SDK use)', query: clientFeaturesQuerySchema,
    response: clientFeatureSchema, deprecated: true,
  },
  getClientDelta: {
    method: 'GET', path: '/api/client/delta', access: SDK_TOKEN, status: 200,
    summary: 'The changes to the token’s scope since the revision named in If-None-Match, as events (a hydration without one; 304 when current)',
    query: clientFeaturesQuerySchema, response: clientDeltaSchema,
  },
  // API Gateway HTTP APIs cannot hold a stream open: the SDK is told at once, and polls instead.
  streamClientFeatures: {
    method: 'GET', path: '/api/client/streaming', access: SDK_TOKEN, status: 404,
    summary: 'Streaming is not offered: always 404 NotFoundError, on which SDKs fall back to polling at once',
    response: errorSchema,
  },
  registerClient: {
    method: 'POST', path: '/api/client/register', access: SDK_TOKEN, status: 202,
    summary: 'An SDK registers its application (202, no body)', body: clientRegisterSchema, lenientBody: true,
  },
  reportClientMetrics: {
    method: 'POST', path: '/api/client/metrics', access: SDK_TOKEN, status: 202,
    summary: 'An SDK reports evaluation counts (202, no body)', body: clientMetricsSchema, lenientBody: 'capped',
    // One report counts every toggle an application evaluated: a batch.
    maxBodyBytes: BODY_LIMITS.batch,
  },
});
