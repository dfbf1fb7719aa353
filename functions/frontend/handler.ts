import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { frontendOrigins } from '../../lib/composition/edge.js';
import { frontend } from '../../lib/composition/slices/frontend.js';
import { withCors } from '../../lib/frontend/cors.js';

/**
 * The frontend function: the Frontend API's slice on the SDK API's payload cache (no admin
 * module), the evaluation engine, and CORS around every answer.
 */
export const definition: FunctionDefinition = {
  group: 'frontend',
  compose: (c) => ({ frontend: c.once(frontend) }),
  around: (handler, c) => withCors(handler, c.once(frontendOrigins)),
};

export const handler = functionHandler(definition);
