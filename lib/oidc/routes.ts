import { admin, defineRoutes } from '../http/route.js';
import { oidcSettingsInputSchema, oidcSettingsSchema } from './schemas.js';

export const oidcSettingsRoutes = defineRoutes('access', {
  getOidcSettings: {
    method: 'GET', path: '/api/admin/auth/oidc/settings', access: admin('ADMIN'),
    status: 200, summary: 'Get the OIDC settings (the secret masked)', response: oidcSettingsSchema,
  },
  setOidcSettings: {
    method: 'POST', path: '/api/admin/auth/oidc/settings', access: admin('ADMIN'),
    status: 200, summary: 'E19. Set the OIDC settings; the secret is stored encrypted', body: oidcSettingsInputSchema,
    response: oidcSettingsSchema,
  },
});
