import { route, type RouteSpec } from '../route-types.js';
import { stateExportQuerySchema, stateSchema } from '../schemas/state.js';

export const stateRoutes = {
  exportState: route({
    method: 'GET', path: '/api/admin/state/export', group: 'state', access: { kind: 'admin', permission: 'ADMIN' }, status: 200,
    summary: 'E10. Export state (deprecated; use E3)', query: stateExportQuerySchema, response: stateSchema, deprecated: true,
    mediaTypes: ['application/json', 'text/yaml'],
  }),
} as const satisfies Record<string, RouteSpec>;
