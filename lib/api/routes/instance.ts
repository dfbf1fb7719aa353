import { route, type RouteSpec } from '../route-types.js';
import { insightsSchema } from '../schemas/insights.js';
import { healthSchema, uiConfigSchema } from '../schemas/instance.js';

export const instanceRoutes = {
  health: route({
    method: 'GET', path: '/health', group: 'instance', access: { kind: 'public' }, status: 200,
    summary: 'Liveness check; needs no token', response: healthSchema,
  }),
  getUiConfig: route({
    method: 'GET', path: '/api/admin/ui-config', group: 'instance', access: { kind: 'admin', permission: 'READ_UI_CONFIG' },
    status: 200, summary: 'E16. Get the UI configuration', response: uiConfigSchema,
  }),
  getInsights: route({
    method: 'GET', path: '/api/admin/insights', group: 'instance', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'E14. Get instance insights: totals now, trends from daily snapshots', response: insightsSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
