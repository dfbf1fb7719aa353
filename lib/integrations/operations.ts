import type { OperationsFor } from '../http/operation.js';
import type { integrationRoutes } from './routes.js';
import type { IntegrationService } from './service.js';

export function integrationOperations({ integrations }: { integrations: IntegrationService }): OperationsFor<typeof integrationRoutes> {
  return {
    listIntegrations: async () => ({ body: { addons: await integrations.list(), providers: [...integrations.providers()] } }),
    createIntegration: async ({ body, caller }) => ({ body: await integrations.create(body, caller.tokenName) }),
    getIntegration: async ({ params }) => ({ body: await integrations.get(params.id) }),
    updateIntegration: async ({ params, body, caller }) => ({ body: await integrations.update(params.id, body, caller.tokenName) }),
    deleteIntegration: async ({ params, caller }) => {
      await integrations.delete(params.id, caller.tokenName);
      return {};
    },
    listIntegrationDeliveries: async ({ params, query }) => ({
      body: { integrationEvents: await integrations.deliveriesOf(params.id, query.limit, query.offset) },
    }),
  };
}
