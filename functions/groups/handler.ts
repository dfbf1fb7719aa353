import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { groups } from '../../lib/composition/slices/groups.js';

/** User groups (design §1, E1, E4). */
export const definition: FunctionDefinition = {
  group: 'groups',
  compose: (c) => ({ groups: c.once(groups) }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
