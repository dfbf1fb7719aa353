import type { OperationsFor } from '../http/operation.js';
import type { Services } from '../composition/services.js';
import type { ContextField } from './model.js';
import type { contextFieldRoutes } from './routes.js';

export function contextFieldOperations({ contextFields }: Services): OperationsFor<typeof contextFieldRoutes> {
  return {
    listContextFields: async () => ({ body: (await contextFields.list()).map(contextFieldWire) }),
    getContextField: async ({ params }) => ({ body: contextFieldWire(await contextFields.get(params.name)) }),
    createContextField: async ({ body }) => {
      const field = await contextFields.create(body);
      return { body: contextFieldWire(field), headers: { location: `context/${field.name}` } };
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

function contextFieldWire(field: ContextField) {
  return {
    name: field.name,
    description: field.description,
    stickiness: field.stickiness,
    sortOrder: field.sortOrder,
    legalValues: field.legalValues,
    createdAt: field.createdAt,
  };
}
