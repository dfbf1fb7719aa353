import type { Slice, SliceContext } from '../slice.js';
import { DynamoClientApplicationStore } from './dynamo-application-store.js';
import { ClientFeatureService } from './features-service.js';
import { ClientMetricsService } from './metrics-service.js';
import { clientOperations } from './operations.js';
import type { ClientPorts } from './ports.js';
import { clientRoutes } from './routes.js';

/**
 * The SDK API: the payload and delta caches over the process's feature snapshot, and the
 * registrations and usage reports. Metrics are recorded only for the features a token is served,
 * known from the same snapshot.
 */
export function clientSlice({ store, now }: SliceContext, ports: ClientPorts, limits: { registrations?: { perScope: number } } = {}) {
  const clientFeatures = new ClientFeatureService(ports.snapshots, ports.revision);
  const clientApplications = new DynamoClientApplicationStore(store.db, store.tableName);
  const clientMetrics = new ClientMetricsService(ports.usageQueue, clientApplications, clientFeatures, now, limits.registrations);
  return {
    routes: clientRoutes,
    operations: clientOperations({ clientFeatures, clientMetrics }),
    clientFeatures,
    clientMetrics,
    clientApplications,
  } satisfies Slice<typeof clientRoutes> & Record<string, unknown>;
}
