import { BODY_LIMITS } from '../../limits.js';
import { route, type RouteSpec } from '../route-types.js';
import {
  clientFeatureSchema,
  clientFeaturesQuerySchema,
  clientFeaturesSchema,
  clientMetricsSchema,
  clientRegisterSchema,
} from '../schemas/client.js';

/** Client, backend and admin tokens alike; the token record decides what is served. */
const sdk = { kind: 'any-token' } as const;

/** The SDK API: what the official SDKs poll and report to. */
export const clientRoutes = {
  getClientFeatures: route({
    method: 'GET', path: '/api/client/features', group: 'client', access: sdk, status: 200,
    summary: 'E17. Get all toggles of the token’s scope (ETag; 304 when If-None-Match matches)',
    query: clientFeaturesQuerySchema, response: clientFeaturesSchema,
  }),
  getClientFeature: route({
    method: 'GET', path: '/api/client/features/{featureName}', group: 'client', access: sdk, status: 200,
    summary: 'E18. Get one toggle of the token’s scope (deprecated for SDK use)', query: clientFeaturesQuerySchema,
    response: clientFeatureSchema, deprecated: true,
  }),
  registerClient: route({
    method: 'POST', path: '/api/client/register', group: 'client', access: sdk, status: 202,
    summary: 'An SDK registers its application (202, no body)', body: clientRegisterSchema, lenientBody: true,
  }),
  reportClientMetrics: route({
    method: 'POST', path: '/api/client/metrics', group: 'client', access: sdk, status: 202,
    summary: 'An SDK reports evaluation counts (202, no body)', body: clientMetricsSchema, lenientBody: 'capped',
    // One report counts every toggle an application evaluated: a batch.
    maxBodyBytes: BODY_LIMITS.batch,
  }),
} as const satisfies Record<string, RouteSpec>;
