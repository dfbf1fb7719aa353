import { createFrontendServices } from '../../lib/composition/frontend-services.js';
import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { frontendOperations } from '../../lib/frontend/operations.js';
import { withCors } from '../../lib/frontend/cors.js';
import { frontendOrigins } from '../../lib/composition/edge.js';
import { frontendRoutes } from '../../lib/frontend/routes.js';

/**
 * The frontend function: the Frontend API's rows on the SDK root's slim composition (no admin
 * module), the evaluation engine, and CORS around every answer.
 */
export const definition: FunctionDefinition = {
  group: 'frontend',
  compose: (c) => ({ frontend: { routes: frontendRoutes, operations: frontendOperations(createFrontendServices(c)) } }),
  around: (handler, c) => withCors(handler, c.once(frontendOrigins)),
};

export const handler = functionHandler(definition);
