import { ANY_TOKEN, PUBLIC, admin, defineRoutes } from '../http/route.js';
import { healthSchema, uiConfigSchema } from './schemas.js';

export const instanceRoutes = defineRoutes('instance', {
  health: {
    method: 'GET', path: '/health', access: PUBLIC, status: 200,
    summary: 'Liveness check; needs no token', response: healthSchema,
  },
  getUiConfig: {
    method: 'GET', path: '/api/admin/ui-config', access: admin('READ_UI_CONFIG'),
    status: 200, summary: 'E16. Get the UI configuration', response: uiConfigSchema,
  },
  // Unknown /api paths answer 404 NotFoundError, but only after authentication, as in Unleash.
  // API Gateway prefers every specific route above to this greedy one.
  unknownApiPath: {
    method: 'ANY', path: '/api/{proxy+}', access: ANY_TOKEN, status: 404,
    summary: 'Any other /api path: 404 after authentication', internal: true,
  },
});
