import { clientOperations } from '../../lib/client/operations.js';
import { clientRoutes } from '../../lib/client/routes.js';
import { createClientServices, type ClientServices } from '../../lib/composition/client-services.js';
import { loadConfig } from '../../lib/config.js';
import { buildRouter, lazyHandler } from '../../lib/http/router.js';

export const defineOperations = clientOperations;

/**
 * The client function's entry: the SDK API's own rows and its slim composition root, so the
 * bundle carries neither the admin API's schemas nor its services (ADR 9).
 */
export const handler = lazyHandler(() => clientHandlerOf(createClientServices(loadConfig(process.env))));

/** The client function's router on a composition (the bench starts cold containers with it). */
export const clientHandlerOf = (services: ClientServices) =>
  buildRouter(clientRoutes, clientOperations(services), services.tokens, { keepsDeadline: false });
