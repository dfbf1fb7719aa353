import { admin, defineRoutes } from '../http/route.js';
import { apiTokenCreateSchema, apiTokenListSchema, apiTokenSchema } from './schemas.js';

export const apiTokenRoutes = defineRoutes('access', {
  listApiTokens: {
    method: 'GET', path: '/api/admin/api-tokens', access: admin('READ_API_TOKEN'),
    status: 200, summary: 'List API tokens (secrets are shown only as a hint)', response: apiTokenListSchema,
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
