import type { OperationsFor } from '../http/operation.js';
import type { ContextFieldPorts } from './ports.js';
import type { contextFieldRoutes } from './routes.js';
import type { ContextFieldService } from './service.js';
import { toContextFieldListItemWire, toContextFieldWire } from './wire.js';

export function contextFieldOperations(
  { contextFields }: { contextFields: ContextFieldService },
  { checkProjectExists }: Pick<ContextFieldPorts, 'checkProjectExists'>,
): OperationsFor<typeof contextFieldRoutes> {
  const listed = async (scope: Parameters<ContextFieldService['list']>[0]) => {
    const [fields, usage] = await Promise.all([contextFields.list(scope), contextFields.usage()]);
    return fields.map((field) => toContextFieldListItemWire(field, usage));
  };
  return {
    listContextFields: async ({ query }) => ({ body: await listed({ root: true, project: query.include ? 'all' : undefined }) }),
    listProjectContextFields: async ({ params, query }) => {
      await checkProjectExists(params.projectId);
      return { body: await listed({ root: query.include, project: params.projectId }) };
    },
    getContextField: async ({ params }) => ({ body: toContextFieldWire(await contextFields.get(params.name)) }),
    listContextFieldStrategies: async ({ params }) => ({ body: { strategies: await contextFields.strategiesUsing(params.name) } }),
    createContextField: async ({ body }) => {
      const field = await contextFields.create(body);
      return { body: toContextFieldWire(field), headers: { location: `context/${field.name}` } };
    },
    validateContextFieldName: async ({ body }) => {
      await contextFields.checkNewName(body.name);
      return {};
    },
    updateContextField: async ({ params, body }) => {
      await contextFields.update(params.name, body);
      return {};
    },
    deleteContextField: async ({ params }) => {
      await contextFields.delete(params.name);
      return {};
    },
    getProjectContextField: async ({ params }) => {
      await checkProjectExists(params.projectId);
      return { body: toContextFieldWire(await contextFields.ofProject(params.name, params.projectId)) };
    },
    createProjectContextField: async ({ params, body }) => {
      await checkProjectExists(params.projectId);
      const field = await contextFields.create(body, params.projectId);
      return { body: toContextFieldWire(field), headers: { location: `projects/${params.projectId}/context/${field.name}` } };
    },
    validateProjectContextFieldName: async ({ params, body }) => {
      await checkProjectExists(params.projectId);
      await contextFields.checkNewName(body.name);
      return {};
    },
    updateProjectContextField: async ({ params, body }) => {
      await checkProjectExists(params.projectId);
      await contextFields.update(params.name, body, params.projectId);
      return {};
    },
    deleteProjectContextField: async ({ params }) => {
      await checkProjectExists(params.projectId);
      await contextFields.delete(params.name, params.projectId);
      return {};
    },
  };
}
