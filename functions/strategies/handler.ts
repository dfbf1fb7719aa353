import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { strategies } from '../../lib/composition/slices/strategies.js';

/** Strategy types (design §1, E2). */
export const definition: FunctionDefinition = {
  group: 'strategies',
  compose: (c) => ({ strategies: c.once(strategies) }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
