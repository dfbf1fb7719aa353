import { admin, defineRoutes } from '../http/route.js';
import {
  contextFieldCreateSchema,
  contextFieldListSchema,
  contextFieldScopeQuerySchema,
  contextFieldSchema,
  contextFieldStrategiesSchema,
  contextFieldUpdateSchema,
} from './schemas.js';


/** Context fields: the names constraints may test, with their legal values and stickiness. */
export const contextFieldRoutes = defineRoutes('features', {
  listContextFields: {
    method: 'GET', path: '/api/admin/context', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: 'List context fields by sort order', response: contextFieldListSchema,
  },
  listProjectContextFields: {
    method: 'GET', path: '/api/admin/projects/{projectId}/context', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: "List a project's own context fields (none: every field is the instance's) and, with include=root, the instance's",
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
  updateContextField: {
    method: 'PUT', path: '/api/admin/context/{name}', access: admin('UPDATE_CONTEXT_FIELD'), status: 200,
    summary: "Replace a context field's description, legal values, stickiness and sort order", body: contextFieldUpdateSchema,
  },
  deleteContextField: {
    method: 'DELETE', path: '/api/admin/context/{name}', access: admin('DELETE_CONTEXT_FIELD'), status: 200,
    summary: 'Delete a context field',
  },
});
