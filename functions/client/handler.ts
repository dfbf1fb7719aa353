import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { clients } from '../../lib/composition/slices/client.js';

/**
 * The client function: the SDK API's slice alone, so the bundle carries neither the admin API's
 * schemas nor its services (ADR 9).
 */
export const definition: FunctionDefinition = {
  group: 'client',
  compose: (c) => ({ client: c.once(clients) }),
};

export const handler = functionHandler(definition);
