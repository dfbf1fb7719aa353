import { admin, defineRoutes } from '../http/route.js';
import {
  contextFieldCreateSchema,
  contextFieldListSchema,
  contextFieldNameSchema,
  contextFieldRootQuerySchema,
  contextFieldScopeQuerySchema,
  contextFieldSchema,
  contextFieldStrategiesSchema,
  contextFieldUpdateSchema,
} from './schemas.js';

const PROJECT_CONTEXT = '/api/admin/projects/{projectId}/context';

/**
 * Context fields: the names constraints may test, with their legal values and stickiness. The
 * instance's fields, and a project's own (project settings → Context fields), which are listed
 * with that project only; names are unique across both, as in Unleash.
 */
export const contextFieldRoutes = defineRoutes('features', {
  listContextFields: {
    method: 'GET', path: '/api/admin/context', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: "List the instance's context fields by sort order (include=project: every project's own too), with their usage counts",
    query: contextFieldRootQuerySchema, response: contextFieldListSchema,
  },
  listProjectContextFields: {
    method: 'GET', path: PROJECT_CONTEXT, access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: "List a project's own context fields and, with include=root, the instance's, with their usage counts",
    query: contextFieldScopeQuerySchema, response: contextFieldListSchema,
  },
  getContextField: {
    method: 'GET', path: '/api/admin/context/{name}', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: 'Get a context field', response: contextFieldSchema,
  },
  listContextFieldStrategies: {
    method: 'GET', path: '/api/admin/context/{name}/strategies', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: 'List the strategies of features not archived whose constraints use a context field (none for an unknown field, as Unleash answers)',
    response: contextFieldStrategiesSchema,
  },
  createContextField: {
    method: 'POST', path: '/api/admin/context', access: admin('CREATE_CONTEXT_FIELD'), status: 201,
    summary: 'Create a context field', body: contextFieldCreateSchema, response: contextFieldSchema,
  },
  validateContextFieldName: {
    method: 'POST', path: '/api/admin/context/validate', access: admin('CREATE_CONTEXT_FIELD'), status: 200,
    summary: 'Check a name for a new context field: 409 when a field (of any project) has it', body: contextFieldNameSchema,
  },
  updateContextField: {
    method: 'PUT', path: '/api/admin/context/{name}', access: admin('UPDATE_CONTEXT_FIELD'), status: 200,
    summary: "Replace a context field's description, legal values, stickiness and sort order", body: contextFieldUpdateSchema,
  },
  deleteContextField: {
    method: 'DELETE', path: '/api/admin/context/{name}', access: admin('DELETE_CONTEXT_FIELD'), status: 200,
    summary: 'Delete a context field that no strategy of a flag not archived tests (409 otherwise)',
  },
  getProjectContextField: {
    method: 'GET', path: `${PROJECT_CONTEXT}/{name}`, access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: "Get one of a project's own context fields", response: contextFieldSchema,
  },
  createProjectContextField: {
    method: 'POST', path: PROJECT_CONTEXT, access: admin('CREATE_CONTEXT_FIELD'), status: 201,
    summary: 'Create a context field of the project', body: contextFieldCreateSchema, response: contextFieldSchema,
  },
  validateProjectContextFieldName: {
    method: 'POST', path: `${PROJECT_CONTEXT}/validate`, access: admin('CREATE_CONTEXT_FIELD'), status: 200,
    summary: 'Check a name for a new context field of the project: 409 when a field (of any project) has it', body: contextFieldNameSchema,
  },
  updateProjectContextField: {
    method: 'PUT', path: `${PROJECT_CONTEXT}/{name}`, access: admin('UPDATE_CONTEXT_FIELD'), status: 200,
    summary: "Replace one of a project's own context fields", body: contextFieldUpdateSchema,
  },
  deleteProjectContextField: {
    method: 'DELETE', path: `${PROJECT_CONTEXT}/{name}`, access: admin('DELETE_CONTEXT_FIELD'), status: 200,
    summary: "Delete one of a project's own context fields that no strategy of a flag not archived tests",
  },
});
