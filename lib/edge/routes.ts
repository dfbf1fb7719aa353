import { BODY_LIMITS } from '../limits.js';
import { PUBLIC, SDK_TOKEN, defineRoutes } from '../http/route.js';
import { bulkMetricsSchema, edgeInstanceSchema, validatedTokensSchema, validateTokensBodySchema } from './schemas.js';

/**
 * What Unleash Edge calls upstream besides the SDK API: it validates its tokens before it
 * serves, and reports its SDKs' usage in bulk. Served by the SDK API's function, which Edge
 * polls anyway.
 */
export const edgeRoutes = defineRoutes('client', {
  // Edge asks before it holds a token it trusts, so Unleash leaves this open: bounded here per
  // request and per client address (lib/edge/model.ts).
  validateEdgeTokens: {
    method: 'POST', path: '/edge/validate', access: PUBLIC, status: 200,
    summary: 'Which of the given API tokens are valid, with each one’s type, environment and projects (no token needed; at most 100 tokens a request, 600 a minute per address, 429 above)',
    body: validateTokensBodySchema, response: validatedTokensSchema,
  },
  reportBulkMetrics: {
    method: 'POST', path: '/api/client/metrics/bulk', access: SDK_TOKEN, status: 202,
    summary: 'Unleash Edge reports its SDKs’ registrations and evaluation counts in bulk (202, no body); counts of other environments than the token’s are ignored, at most 100 applications registered a report',
    body: bulkMetricsSchema, lenientBody: 'capped', maxBodyBytes: BODY_LIMITS.batch,
  },
  reportEdgeInstance: {
    method: 'POST', path: '/api/client/metrics/edge', access: SDK_TOKEN, status: 202,
    summary: 'Unleash Edge reports on itself (202, no body): kept as a registered application per Edge instance',
    body: edgeInstanceSchema, lenientBody: true, maxBodyBytes: BODY_LIMITS.batch,
  },
});
