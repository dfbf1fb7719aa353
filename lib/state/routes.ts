import { admin, defineRoutes } from '../http/route.js';
import { stateExportQuerySchema, stateSchema } from './schemas.js';

export const stateRoutes = defineRoutes('state', {
  exportState: {
    method: 'GET', path: '/api/admin/state/export', access: admin('ADMIN'), status: 200,
    summary: 'E10. Export state (deprecated; use E3)', query: stateExportQuerySchema, response: stateSchema, deprecated: true,
    mediaTypes: ['application/json', 'text/yaml'],
  },
});
