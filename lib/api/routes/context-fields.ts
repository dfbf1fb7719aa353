import { route, type RouteSpec } from '../route-types.js';
import {
  contextFieldCreateSchema,
  contextFieldListSchema,
  contextFieldSchema,
  contextFieldUpdateSchema,
} from '../schemas/context-fields.js';

const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** Context fields: the names constraints may test, with their legal values and stickiness. */
export const contextFieldRoutes = {
  listContextFields: route({
    method: 'GET', path: '/api/admin/context', group: 'features', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: 'List context fields by sort order', response: contextFieldListSchema,
  }),
  getContextField: route({
    method: 'GET', path: '/api/admin/context/{name}', group: 'features', access: admin('READ_CONTEXT_FIELD'), status: 200,
    summary: 'Get a context field', response: contextFieldSchema,
  }),
  createContextField: route({
    method: 'POST', path: '/api/admin/context', group: 'features', access: admin('CREATE_CONTEXT_FIELD'), status: 201,
    summary: 'Create a context field', body: contextFieldCreateSchema, response: contextFieldSchema,
  }),
  updateContextField: route({
    method: 'PUT', path: '/api/admin/context/{name}', group: 'features', access: admin('UPDATE_CONTEXT_FIELD'), status: 200,
    summary: "Replace a context field's description, legal values, stickiness and sort order", body: contextFieldUpdateSchema,
  }),
  deleteContextField: route({
    method: 'DELETE', path: '/api/admin/context/{name}', group: 'features', access: admin('DELETE_CONTEXT_FIELD'), status: 200,
    summary: 'Delete a context field',
  }),
} as const satisfies Record<string, RouteSpec>;
