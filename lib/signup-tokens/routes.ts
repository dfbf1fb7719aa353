import { admin, defineRoutes } from '../http/route.js';
import {
  signupTokenCreateSchema,
  signupTokenListSchema,
  signupTokenSchema,
  signupTokenUpdateSchema,
} from './schemas.js';
import { signupSchema, userSchema } from '../users/schemas.js';

export const signupTokenRoutes = defineRoutes('access', {
  listSignupTokens: {
    method: 'GET', path: '/api/admin/invite-link/tokens', access: admin('ADMIN'),
    status: 200, summary: 'List public signup tokens', response: signupTokenListSchema,
  },
  createSignupToken: {
    method: 'POST', path: '/api/admin/invite-link/tokens', access: admin('ADMIN'),
    status: 201, summary: 'Create a public signup token (Viewer role, at most one month)', body: signupTokenCreateSchema,
    response: signupTokenSchema,
  },
  getSignupToken: {
    method: 'GET', path: '/api/admin/invite-link/tokens/{token}', access: admin('ADMIN'),
    status: 200, summary: 'Get a public signup token and its users', response: signupTokenSchema,
  },
  updateSignupToken: {
    method: 'PUT', path: '/api/admin/invite-link/tokens/{token}', access: admin('ADMIN'),
    status: 200, summary: 'E20. Update a public signup token (enabled, expiresAt)', body: signupTokenUpdateSchema,
    response: signupTokenSchema,
  },
  signUpWithToken: {
    method: 'POST', path: '/api/admin/invite-link/tokens/{token}/signup',
    access: admin('ADMIN'), status: 201,
    summary: 'Create a user through a public signup token (its role; refused once disabled or expired)',
    body: signupSchema, response: userSchema,
  },
});
