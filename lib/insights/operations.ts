import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { insightRoutes } from './routes.js';

export const insightOperations = ({ insights }: Services): OperationsFor<typeof insightRoutes> => ({
  getInsights: async () => ({ body: await insights.insights() }),
});
