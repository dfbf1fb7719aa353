import { ClientFeatureService } from '../client/features-service.js';
import { ClientMetricsService } from '../client/metrics-service.js';
import { DynamoClientApplicationStore } from '../client/dynamo-application-store.js';
import { DynamoFeatureStore } from '../features/dynamo-store.js';
import { DynamoMetricsStore } from '../client/dynamo-metrics-store.js';
import { directMetricsQueue, MetricsWriter, type MetricsQueue } from '../client/metrics-stages.js';
import { SqsMetricsQueue } from '../client/metrics-sqs-queue.js';
import { DynamoSegmentStore } from '../segments/dynamo-store.js';
import { DynamoStoredSnapshotStore } from '../client/dynamo-stored-snapshot.js';
import type { Composition } from './composition.js';
import { apiTokenStore, revisionClock, tokenAuthenticator } from './edge.js';

export { connectStore, type StoreContext } from '../store/context.js';

/**
 * The SDK API's composition root: only what the client function needs, so its bundle and its
 * cold start stay small (ADR 9). `createServices` builds on it, so the SDK path is wired once
 * and an admin write in the same process reaches the same revision clock and token cache.
 */
export function createClientServices(c: Composition) {
  return c.once(clientServices);
}

function clientServices(c: Composition) {
  const { config, store } = c;
  const { db, tableName: table, revisions } = store;
  const featureStore = new DynamoFeatureStore(db, table, revisions);
  const segmentStore = new DynamoSegmentStore(db, table, revisions);
  const metricsStore = new DynamoMetricsStore(db, table);
  const clientApplications = new DynamoClientApplicationStore(db, table);
  const clock = c.once(revisionClock);
  // Metrics are recorded only for the features a token is served, known from the same snapshot.
  const clientFeatures = new ClientFeatureService(featureStore, segmentStore, clock, revisions, { stored: new DynamoStoredSnapshotStore(db, table) });
  return {
    /** The composition these services were built on (a cold container's handler is built on it). */
    composition: c,
    config,
    store,
    revisions,
    dynamoRequests: store.dynamoRequests,
    featureStore,
    segmentStore,
    metricsStore,
    clientApplications,
    tokenStore: c.once(apiTokenStore),
    tokens: c.once(tokenAuthenticator),
    clientFeatures,
    /** The revision as this process last read it (the Frontend API's CORS origins ride on it too). */
    clock,
    clientMetrics: new ClientMetricsService(metricsQueueFor(c, metricsStore), clientApplications, clientFeatures, c.now),
  };
}

export type ClientServices = ReturnType<typeof createClientServices>;

/**
 * Reports go to the queue the runtime gives, else to SQS when configured (the cloud, ADR 15),
 * else through both metrics stages in the request (tests, `npm run invoke`).
 */
function metricsQueueFor(c: Composition, metricsStore: DynamoMetricsStore): MetricsQueue {
  if (c.metricsQueue) return c.metricsQueue;
  if (c.config.metricsQueueUrl) return new SqsMetricsQueue(c.config.metricsQueueUrl, c.config.region);
  return directMetricsQueue(new MetricsWriter(metricsStore));
}
