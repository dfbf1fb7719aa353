import { admin, defineRoutes } from '../http/route.js';
import { environmentCreateSchema, environmentListSchema, environmentSchema, projectEnvironmentListSchema } from './schemas.js';


/** The instance's environments; they join the projects group, as projects choose among them. */
export const environmentRoutes = defineRoutes('projects', {
  listEnvironments: {
    method: 'GET', path: '/api/admin/environments', access: admin('READ_ENVIRONMENT'), status: 200,
    summary: 'List environments by sort order', response: environmentListSchema,
  },
  getEnvironment: {
    method: 'GET', path: '/api/admin/environments/{name}', access: admin('READ_ENVIRONMENT'), status: 200,
    summary: 'Get an environment', response: environmentSchema,
  },
  listProjectEnvironments: {
    method: 'GET', path: '/api/admin/environments/project/{projectId}', access: admin('READ_ENVIRONMENT'), status: 200,
    summary: 'List every environment as a project sees it: whether it uses it, its tokens there, its features on there',
    response: projectEnvironmentListSchema,
  },
  createEnvironment: {
    method: 'POST', path: '/api/admin/environments', access: admin('CREATE_ENVIRONMENT'), status: 201,
    summary: 'Create an environment', body: environmentCreateSchema, response: environmentSchema,
  },
});
