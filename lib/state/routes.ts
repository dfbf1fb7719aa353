import { admin, defineRoutes } from '../http/route.js';
import { stateExportQuerySchema, stateSchema } from './schemas.js';

export const stateRoutes = defineRoutes('state', {
  exportState: {
    method: 'GET', path: '/api/admin/state/export', access: admin('ADMIN'), status: 200,
    summary: 'E10. Export state (deprecated; use E3)', query: stateExportQuerySchema, response: stateSchema, deprecated: true,
    mediaTypes: ['application/json', 'text/yaml'],
    // The export has no pages of its own: its bulk is the features, which the search pages.
    pagedAlternative: '/api/admin/search/features?offset=0&limit=100',
  },
});
