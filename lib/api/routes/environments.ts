import { route, type RouteSpec } from '../route-types.js';
import { environmentCreateSchema, environmentListSchema, environmentSchema } from '../schemas/environments.js';

const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** The instance's environments; they join the projects group, as projects choose among them. */
export const environmentRoutes = {
  listEnvironments: route({
    method: 'GET', path: '/api/admin/environments', group: 'projects', access: admin('READ_ENVIRONMENT'), status: 200,
    summary: 'List environments by sort order', response: environmentListSchema,
  }),
  getEnvironment: route({
    method: 'GET', path: '/api/admin/environments/{name}', group: 'projects', access: admin('READ_ENVIRONMENT'), status: 200,
    summary: 'Get an environment', response: environmentSchema,
  }),
  createEnvironment: route({
    method: 'POST', path: '/api/admin/environments', group: 'projects', access: admin('CREATE_ENVIRONMENT'), status: 201,
    summary: 'Create an environment', body: environmentCreateSchema, response: environmentSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
