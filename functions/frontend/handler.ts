import { createFrontendServices } from '../../lib/composition/frontend-services.js';
import { loadConfig } from '../../lib/config.js';
import { withCors } from '../../lib/frontend/cors.js';
import { frontendOperations } from '../../lib/frontend/operations.js';
import { frontendRoutes } from '../../lib/frontend/routes.js';
import { buildRouter, lazyHandler } from '../../lib/http/router.js';
import { SDK_GROUPS } from '../../lib/http/route.js';

export const defineOperations = frontendOperations;

/**
 * The frontend function's entry: the Frontend API's rows on the SDK root's slim composition (no
 * admin module), the evaluation engine, and CORS around every answer.
 */
export const handler = lazyHandler(() => {
  const services = createFrontendServices(loadConfig(process.env));
  const router = buildRouter(frontendRoutes, frontendOperations(services), services.tokens, { keepsDeadline: !SDK_GROUPS.has('frontend') });
  return withCors(router, services.frontendOrigins);
});
