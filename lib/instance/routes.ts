import { ANY_TOKEN, PUBLIC, admin, defineRoutes } from '../http/route.js';
import { healthSchema, instanceStatisticsSchema, telemetrySettingsSchema, uiConfigSchema, uiErrorSchema } from './schemas.js';

export const instanceRoutes = defineRoutes('instance', {
  health: {
    method: 'GET', path: '/health', access: PUBLIC, status: 200,
    summary: 'Liveness check; needs no token', response: healthSchema,
  },
  getUiConfig: {
    method: 'GET', path: '/api/admin/ui-config', access: admin('READ_UI_CONFIG'),
    status: 200, summary: 'E16. Get the UI configuration', response: uiConfigSchema,
  },
  getInstanceStatistics: {
    // Unleash lets any logged-in user read it; the UI shows it only in Admin settings, and each
    // read counts the whole table, so it is not left to every Viewer.
    method: 'GET', path: '/api/admin/instance-admin/statistics', access: admin('ADMIN'), status: 200,
    summary: "Admin settings' instance statistics: counts of users, tokens, flags, projects and the catalogues, read now; this service's name and version",
    response: instanceStatisticsSchema,
  },
  getTelemetrySettings: {
    method: 'GET', path: '/api/admin/telemetry/settings', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'What the instance reports about itself: nothing (it never calls out for versions or usage)', response: telemetrySettingsSchema,
  },
  recordUiError: {
    method: 'POST', path: '/api/admin/record-ui-error', access: admin('READ_UI_CONFIG'), status: 204,
    summary: "An error the admin UI met, written to the service's log", body: uiErrorSchema,
  },
  // Unknown /api paths answer 404 NotFoundError, but only after authentication, as in Unleash.
  // API Gateway prefers every specific route above to this greedy one.
  unknownApiPath: {
    method: 'ANY', path: '/api/{proxy+}', access: ANY_TOKEN, status: 404,
    summary: 'Any other /api path: 404 after authentication', internal: true,
  },
});
