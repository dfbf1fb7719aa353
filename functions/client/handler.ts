import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { clients } from '../../lib/composition/slices/client.js';
import { edges } from '../../lib/composition/slices/edge.js';

/**
 * The client function: the SDK API's slice and Unleash Edge's upstream endpoints beside it, so
 * the bundle carries neither the admin API's schemas nor its services (ADR 9).
 */
export const definition: FunctionDefinition = {
  group: 'client',
  compose: (c) => ({ client: c.once(clients), edge: c.once(edges) }),
};

export const handler = functionHandler(definition);
