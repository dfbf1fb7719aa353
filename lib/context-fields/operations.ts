import type { OperationsFor } from '../http/operation.js';
import type { ContextFieldPorts } from './ports.js';
import type { contextFieldRoutes } from './routes.js';
import type { ContextFieldService } from './service.js';
import { toContextFieldWire } from './wire.js';

export function contextFieldOperations(
  { contextFields }: { contextFields: ContextFieldService },
  { checkProjectExists }: Pick<ContextFieldPorts, 'checkProjectExists'>,
): OperationsFor<typeof contextFieldRoutes> {
  return {
    listContextFields: async () => ({ body: (await contextFields.list()).map(toContextFieldWire) }),
    listProjectContextFields: async ({ params, query }) => {
      await checkProjectExists(params.projectId);
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
