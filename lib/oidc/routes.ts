import { admin, defineRoutes, PUBLIC } from '../http/route.js';
import { oidcLoginQuerySchema, oidcSettingsInputSchema, oidcSettingsSchema } from './schemas.js';

/**
 * Single sign-on: the OIDC settings (E19) and the login they drive. The login's paths are
 * Unleash's own, outside /api: the admin UI's "Sign in with OpenID Connect" button goes to the
 * first, and the provider sends the browser back to the second.
 */
export const oidcRoutes = defineRoutes('access', {
  getOidcSettings: {
    method: 'GET', path: '/api/admin/auth/oidc/settings', access: admin('ADMIN'),
    status: 200, summary: 'Get the OIDC settings (the secret masked)', response: oidcSettingsSchema,
  },
  setOidcSettings: {
    method: 'POST', path: '/api/admin/auth/oidc/settings', access: admin('ADMIN'),
    status: 200, summary: 'E19. Set the OIDC settings; the secret is stored encrypted', body: oidcSettingsInputSchema,
    response: oidcSettingsSchema,
  },
  startOidcLogin: {
    method: 'GET', path: '/auth/oidc/login', access: PUBLIC, status: 302, query: oidcLoginQuerySchema,
    summary: "Start a single sign-on login: redirects to the identity provider (or back to the login page, which says what is wrong)",
  },
  finishOidcLogin: {
    method: 'GET', path: '/auth/oidc/callback', access: PUBLIC, status: 302,
    summary: "The identity provider's redirect back: checks state, code and ID token, logs the user in and redirects to the UI",
  },
});
