import { admin, defineRoutes } from '../http/route.js';
import { frontendOriginsSchema } from './schemas.js';

/**
 * The Frontend API's settings, at Unleash's path under the UI configuration. Served by the
 * access function: who may call the Frontend API from a browser is access control, and that
 * function already writes the other login and access settings.
 */
export const frontendSettingsRoutes = defineRoutes('access', {
  setFrontendOrigins: {
    method: 'POST', path: '/api/admin/ui-config/cors', access: admin('UPDATE_CORS'), status: 204,
    summary: 'Set the origins browsers may call the Frontend API from (`*` or origins; CORS)', body: frontendOriginsSchema,
  },
});
