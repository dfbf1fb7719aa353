import { clientOperations } from '../../lib/client/operations.js';
import { clientRoutes } from '../../lib/client/routes.js';
import { createClientServices } from '../../lib/composition/client-services.js';
import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';

/**
 * The client function: the SDK API's own rows on its slim composition, so the bundle carries
 * neither the admin API's schemas nor its services (ADR 9).
 */
export const definition: FunctionDefinition = {
  group: 'client',
  compose: (c) => ({ client: { routes: clientRoutes, operations: clientOperations(createClientServices(c)) } }),
};

export const handler = functionHandler(definition);
