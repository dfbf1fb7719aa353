import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { contextFieldRoutes } from './routes.js';
import { toContextFieldWire } from './wire.js';

export function contextFieldOperations({ contextFields, projects }: Services): OperationsFor<typeof contextFieldRoutes> {
  return {
    listContextFields: async () => ({ body: (await contextFields.list()).map(toContextFieldWire) }),
    listProjectContextFields: async ({ params, query }) => {
      await projects.getProject(params.projectId);
      return { body: query.include ? (await contextFields.list()).map(toContextFieldWire) : [] };
    },
    getContextField: async ({ params }) => ({ body: toContextFieldWire(await contextFields.get(params.name)) }),
    listContextFieldStrategies: async ({ params }) => ({ body: { strategies: await contextFields.strategiesUsing(params.name) } }),
    createContextField: async ({ body }) => {
      const field = await contextFields.create(body);
      return { body: toContextFieldWire(field), headers: { location: `context/${field.name}` } };
    },
    updateContextField: async ({ params, body }) => {
      await contextFields.update(params.name, body);
      return {};
    },
    deleteContextField: async ({ params }) => {
      await contextFields.delete(params.name);
      return {};
    },
  };
}
