import { admin, defineRoutes } from '../http/route.js';
import { insightsSchema } from './schemas.js';

export const insightRoutes = defineRoutes('instance', {
  getInsights: {
    method: 'GET', path: '/api/admin/insights', access: admin('ADMIN'),
    status: 200, summary: 'E14. Get instance insights: totals now, trends from daily snapshots', response: insightsSchema,
  },
});
