import type { OperationsFor } from '../http/operation.js';
import type { EnvironmentPorts } from './ports.js';
import type { environmentRoutes } from './routes.js';
import type { EnvironmentService } from './service.js';
import { toEnvironmentWire, toProjectEnvironmentWire } from './wire.js';

export function environmentOperations(
  { environments }: { environments: EnvironmentService },
  { environmentUse, apiTokens }: EnvironmentPorts,
): OperationsFor<typeof environmentRoutes> {
  return {
    listEnvironments: async () => ({ body: { version: 1, environments: (await environments.list()).map(toEnvironmentWire) } }),
    getEnvironment: async ({ params }) => ({ body: toEnvironmentWire(await environments.get(params.name)) }),
    listProjectEnvironments: async ({ params }) => {
      const [{ project, uses }, tokens] = await Promise.all([environmentUse(params.projectId), apiTokens()]);
      return { body: { version: 1, environments: uses.map((use) => toProjectEnvironmentWire(use, project, tokens)) } };
    },
    createEnvironment: async ({ body }) => {
      const environment = await environments.create(body);
      return { body: toEnvironmentWire(environment), headers: { location: `environments/${environment.name}` } };
    },
  };
}
