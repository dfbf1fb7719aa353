import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { state } from '../../lib/composition/slices/state.js';

/** The whole instance's export (E10). */
export const definition: FunctionDefinition = {
  group: 'state',
  compose: (c) => ({ state: c.once(state) }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
