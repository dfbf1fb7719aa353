import { admin, defineRoutes } from '../http/route.js';
import { apiTokenCreateSchema, apiTokenListSchema, apiTokenSchema, projectApiTokenCreateSchema } from './schemas.js';

export const apiTokenRoutes = defineRoutes('access', {
  listApiTokens: {
    method: 'GET', path: '/api/admin/api-tokens', access: admin('READ_API_TOKEN'),
    status: 200, summary: 'List API tokens (secrets are shown only as a hint)', response: apiTokenListSchema,
  },
  listProjectApiTokens: {
    method: 'GET', path: '/api/admin/projects/{projectId}/api-tokens', access: admin('READ_API_TOKEN'),
    status: 200, summary: "The API tokens scoped to one project, among others or alone (not those of every project), as the project's API access page lists them",
    response: apiTokenListSchema,
  },
  createProjectApiToken: {
    method: 'POST', path: '/api/admin/projects/{projectId}/api-tokens', access: admin('CREATE_API_TOKEN'),
    status: 201, summary: "Create a client or frontend token of one project, as the project's API access page does; the answer is the only time its secret is shown",
    body: projectApiTokenCreateSchema, response: apiTokenSchema,
  },
  deleteProjectApiToken: {
    method: 'DELETE', path: '/api/admin/projects/{projectId}/api-tokens/{token}', access: admin('DELETE_API_TOKEN'),
    status: 200, summary: 'Delete a token of this project alone, named by its secret, its listed value or its tokenId (404 when none, 400 for a token of other projects too)',
  },
  createApiToken: {
    method: 'POST', path: '/api/admin/api-tokens', access: admin('CREATE_API_TOKEN'),
    status: 201, summary: 'Create an API token; the answer is the only time its secret is shown',
    body: apiTokenCreateSchema, response: apiTokenSchema,
  },
  deleteApiToken: {
    method: 'DELETE', path: '/api/admin/api-tokens/{token}',
    access: admin('DELETE_API_TOKEN'), status: 200,
    summary: 'Delete an API token, named by its secret or its tokenId',
  },
});
