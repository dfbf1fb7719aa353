import { admin, defineRoutes } from '../http/route.js';
import { createPatSchema, patSchema, patsSchema } from './schemas.js';

/**
 * A person's own personal access tokens (Unleash's PATs). Unleash asks no permission beyond being
 * logged in (READ_UI_CONFIG is every root role's here); an API token is no user and is refused.
 */
export const personalTokenRoutes = defineRoutes('access', {
  getPats: {
    method: 'GET', path: '/api/admin/user/tokens', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "The caller's personal access tokens, without their secrets; 403 for an API token", response: patsSchema,
  },
  createPat: {
    method: 'POST', path: '/api/admin/user/tokens', access: admin('READ_UI_CONFIG'), status: 201,
    summary: 'Create a personal access token for the caller (at most 10, each description once, expiry in the future); the secret is answered only here',
    body: createPatSchema, response: patSchema,
  },
  deletePat: {
    method: 'DELETE', path: '/api/admin/user/tokens/{id}', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "Delete one of the caller's personal access tokens; it stops authenticating at once",
  },
});
