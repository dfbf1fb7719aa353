import { route, type RouteSpec } from '../route-types.js';
import { apiTokenCreateSchema, apiTokenListSchema, apiTokenSchema } from '../schemas/api-tokens.js';

export const apiTokenRoutes = {
  listApiTokens: route({
    method: 'GET', path: '/api/admin/api-tokens', group: 'access', access: { kind: 'admin', permission: 'READ_API_TOKEN' },
    status: 200, summary: 'List API tokens (secrets are shown only as a hint)', response: apiTokenListSchema,
  }),
  createApiToken: route({
    method: 'POST', path: '/api/admin/api-tokens', group: 'access', access: { kind: 'admin', permission: 'CREATE_API_TOKEN' },
    status: 201, summary: 'Create an API token; the answer is the only time its secret is shown',
    body: apiTokenCreateSchema, response: apiTokenSchema,
  }),
  deleteApiToken: route({
    method: 'DELETE', path: '/api/admin/api-tokens/{token}', group: 'access',
    access: { kind: 'admin', permission: 'DELETE_API_TOKEN' }, status: 200,
    summary: 'Delete an API token, named by its secret or its tokenId',
  }),
} as const satisfies Record<string, RouteSpec>;
