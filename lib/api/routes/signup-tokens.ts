import { route, type RouteSpec } from '../route-types.js';
import {
  signupTokenCreateSchema,
  signupTokenListSchema,
  signupTokenSchema,
  signupTokenUpdateSchema,
} from '../schemas/signup-tokens.js';
import { signupSchema, userSchema } from '../schemas/users.js';

export const signupTokenRoutes = {
  listSignupTokens: route({
    method: 'GET', path: '/api/admin/invite-link/tokens', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'List public signup tokens', response: signupTokenListSchema,
  }),
  createSignupToken: route({
    method: 'POST', path: '/api/admin/invite-link/tokens', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 201, summary: 'Create a public signup token (Viewer role, at most one month)', body: signupTokenCreateSchema,
    response: signupTokenSchema,
  }),
  getSignupToken: route({
    method: 'GET', path: '/api/admin/invite-link/tokens/{token}', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Get a public signup token and its users', response: signupTokenSchema,
  }),
  updateSignupToken: route({
    method: 'PUT', path: '/api/admin/invite-link/tokens/{token}', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'E20. Update a public signup token (enabled, expiresAt)', body: signupTokenUpdateSchema,
    response: signupTokenSchema,
  }),
  signUpWithToken: route({
    method: 'POST', path: '/api/admin/invite-link/tokens/{token}/signup', group: 'access',
    access: { kind: 'admin', permission: 'ADMIN' }, status: 201,
    summary: 'Create a user through a public signup token (its role; refused once disabled or expired)',
    body: signupSchema, response: userSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
