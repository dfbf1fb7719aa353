import { route, type RouteSpec } from '../route-types.js';
import { oidcSettingsInputSchema, oidcSettingsSchema } from '../schemas/oidc-settings.js';

export const authSettingsRoutes = {
  getOidcSettings: route({
    method: 'GET', path: '/api/admin/auth/oidc/settings', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Get the OIDC settings (the secret masked)', response: oidcSettingsSchema,
  }),
  setOidcSettings: route({
    method: 'POST', path: '/api/admin/auth/oidc/settings', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'E19. Set the OIDC settings; the secret is stored encrypted', body: oidcSettingsInputSchema,
    response: oidcSettingsSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
