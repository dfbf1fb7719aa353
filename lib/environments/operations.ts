import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { environmentRoutes } from './routes.js';
import { toEnvironmentWire } from './wire.js';

export function environmentOperations({ environments }: Services): OperationsFor<typeof environmentRoutes> {
  return {
    listEnvironments: async () => ({ body: { version: 1, environments: (await environments.list()).map(toEnvironmentWire) } }),
    getEnvironment: async ({ params }) => ({ body: toEnvironmentWire(await environments.get(params.name)) }),
    createEnvironment: async ({ body }) => {
      const environment = await environments.create(body);
      return { body: toEnvironmentWire(environment), headers: { location: `environments/${environment.name}` } };
    },
  };
}
