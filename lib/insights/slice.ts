import type { Slice, SliceContext } from '../slice.js';
import { DynamoSnapshotStore } from './dynamo-store.js';
import { insightOperations } from './operations.js';
import type { InsightCatalog } from './ports.js';
import { ProjectStatsService } from './project-stats-service.js';
import { insightRoutes } from './routes.js';
import { InsightsService } from './service.js';

/** Insights (E14): live totals, the daily snapshots' trends, and each project's activity figures. */
export function insightSlice({ store }: SliceContext, ports: InsightCatalog) {
  const insights = new InsightsService(ports, new DynamoSnapshotStore(store.db, store.tableName));
  const projectStats = new ProjectStatsService(ports);
  return {
    routes: insightRoutes,
    operations: insightOperations({ insights }),
    insights,
    projectStats,
  } satisfies Slice<typeof insightRoutes> & Record<string, unknown>;
}
