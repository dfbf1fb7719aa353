import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { Environment } from './model.js';
import type { environmentRoutes } from './routes.js';
import type { EnvironmentWire } from './schemas.js';

export function environmentOperations({ environments }: Services): OperationsFor<typeof environmentRoutes> {
  return {
    listEnvironments: async () => ({ body: { version: 1, environments: (await environments.list()).map(environmentWire) } }),
    getEnvironment: async ({ params }) => ({ body: environmentWire(await environments.get(params.name)) }),
    createEnvironment: async ({ body }) => {
      const environment = await environments.create(body);
      return { body: environmentWire(environment), headers: { location: `environments/${environment.name}` } };
    },
  };
}

function environmentWire(environment: Environment): EnvironmentWire {
  return {
    name: environment.name,
    type: environment.type,
    enabled: environment.enabled,
    protected: environment.protected,
    sortOrder: environment.sortOrder,
    createdAt: environment.createdAt,
  };
}
