import type { OperationsFor } from '../http/operation.js';
import type { insightRoutes } from './routes.js';
import type { InsightsService } from './service.js';

export const insightOperations = ({ insights }: { insights: InsightsService }): OperationsFor<typeof insightRoutes> => ({
  getInsights: async () => ({ body: await insights.insights() }),
});
