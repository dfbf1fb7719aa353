import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { frontendOrigins } from '../../lib/composition/edge.js';
import { frontend } from '../../lib/composition/slices/frontend.js';
import { ofrep } from '../../lib/composition/slices/ofrep.js';
import { withCors } from '../../lib/frontend/cors.js';
import { withOfrepAnswers } from '../../lib/ofrep/errors.js';

/**
 * The frontend function: the Frontend API's and OFREP's slices on the SDK API's payload cache
 * (no admin module), the evaluation engine, OFREP's own error shapes on its routes, and CORS
 * around every answer (the same origins for both: browsers call either).
 */
export const definition: FunctionDefinition = {
  group: 'frontend',
  compose: (c) => ({ frontend: c.once(frontend), ofrep: c.once(ofrep) }),
  around: (handler, c) => withCors(withOfrepAnswers(handler), c.once(frontendOrigins)),
};

export const handler = functionHandler(definition);
