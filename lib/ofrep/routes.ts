import { OFREP_TOKEN, PUBLIC, defineRoutes } from '../http/route.js';
import { ofrepBulkSchema, ofrepEvaluationSchema, ofrepRequestSchema } from './schemas.js';

/**
 * The OpenFeature Remote Evaluation Protocol (OFREP): what OpenFeature's providers of every
 * language call, with a frontend token (browsers) or a client token (servers), in
 * `Authorization` or `X-API-Key`. Served by the frontend function, on its evaluator and CORS;
 * answers and errors are the protocol's own (errors.ts), not the interface's Error shape.
 */
export const ofrepRoutes = defineRoutes('frontend', {
  evaluateOfrepFlag: {
    method: 'POST', path: '/ofrep/v1/evaluate/flags/{featureName}', access: OFREP_TOKEN, status: 200,
    summary: 'OFREP: one flag evaluated for the context in the body (404 FLAG_NOT_FOUND, also for a flag off for a frontend token\'s caller; 400 INVALID_CONTEXT, TARGETING_KEY_MISSING, PARSE_ERROR)',
    body: ofrepRequestSchema, response: ofrepEvaluationSchema,
  },
  evaluateOfrepFlags: {
    method: 'POST', path: '/ofrep/v1/evaluate/flags', access: OFREP_TOKEN, status: 200,
    summary: 'OFREP: the flags of the token\'s scope evaluated for the context in the body, only those on for the caller with a frontend token (ETag of data and context; 304 when If-None-Match matches)',
    body: ofrepRequestSchema, response: ofrepBulkSchema,
  },
  preflightOfrepFlags: {
    method: 'OPTIONS', path: '/ofrep/v1/evaluate/flags', access: PUBLIC, status: 204,
    summary: 'CORS preflight of OFREP\'s bulk evaluation (no token; CORS headers only for an allowed origin)',
  },
  preflightOfrepFlag: {
    method: 'OPTIONS', path: '/ofrep/v1/evaluate/flags/{featureName}', access: PUBLIC, status: 204,
    summary: 'CORS preflight of OFREP\'s single-flag evaluation', internal: true,
  },
});
