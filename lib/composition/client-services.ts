import type { AppConfig } from '../config.js';
import { ClientFeatureService } from '../client/features-service.js';
import { ClientMetricsService } from '../client/metrics-service.js';
import { RevisionClock } from '../client/revision-clock.js';
import { DynamoApiTokenStore } from '../tokens/dynamo-store.js';
import { DynamoClientApplicationStore } from '../client/dynamo-application-store.js';
import { createDocumentClient } from '../store/document-client.js';
import { DynamoFeatureStore } from '../features/dynamo-store.js';
import { DynamoMetricsStore } from '../client/dynamo-metrics-store.js';
import { directMetricsQueue, MetricsWriter, type MetricsQueue } from '../client/metrics-stages.js';
import { SqsMetricsQueue } from '../client/metrics-sqs-queue.js';
import { countRequests, type RequestCounter } from '../store/request-counter.js';
import { DynamoRevisionStore } from '../store/revision-store.js';
import { DynamoSegmentStore } from '../segments/dynamo-store.js';
import { DynamoStoredSnapshotStore } from '../client/dynamo-stored-snapshot.js';
import { TokenAuthenticator } from '../tokens/authenticator.js';

/** The one DynamoDB connection of a process, its request counter and the revision item. */
export interface StoreContext {
  db: ReturnType<typeof createDocumentClient>;
  tableName: string;
  revisions: DynamoRevisionStore;
  /** Every DynamoDB request this process sends, by operation (tests and `npm run bench` read it). */
  dynamoRequests: RequestCounter;
}

export function connectStore(config: AppConfig): StoreContext {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint, accessKeyId: config.dynamodbAccessKeyId });
  return { db, tableName: config.tableName, dynamoRequests: countRequests(db), revisions: new DynamoRevisionStore(db, config.tableName) };
}

/**
 * The SDK API's composition root: only what the client function needs, so its bundle and its
 * cold start stay small (ADR 9). `createServices` builds on it, so the SDK path is wired once
 * and an admin write in the same process reaches the same revision clock and token cache.
 */
export function createClientServices(config: AppConfig, store: StoreContext = connectStore(config), options: ClientServicesOptions = {}) {
  const { db, tableName: table, revisions } = store;
  const featureStore = new DynamoFeatureStore(db, table, revisions);
  const segmentStore = new DynamoSegmentStore(db, table, revisions);
  const metricsStore = new DynamoMetricsStore(db, table);
  const clientApplications = new DynamoClientApplicationStore(db, table);
  const tokenStore = new DynamoApiTokenStore(db, table, revisions);
  const clock = new RevisionClock(revisions, { checkIntervalMs: config.revisionCheckIntervalMs });
  // Same-process read-after-write: this process's own writes end the interval at once.
  revisions.onCommittedBump(() => clock.invalidate());
  // Metrics are recorded only for the features a token is served, known from the same snapshot.
  const clientFeatures = new ClientFeatureService(featureStore, segmentStore, clock, revisions, { stored: new DynamoStoredSnapshotStore(db, table) });
  return {
    config,
    store,
    revisions,
    dynamoRequests: store.dynamoRequests,
    featureStore,
    segmentStore,
    metricsStore,
    clientApplications,
    tokenStore,
    // Revocations ride on the clock's read of the revision item (no read of their own).
    tokens: new TokenAuthenticator(tokenStore, config.baseUriPath, { ttlMs: config.tokenCacheTtlMs, changes: clock }),
    clientFeatures,
    /** The revision as this process last read it (the Frontend API's CORS origins ride on it too). */
    clock,
    clientMetrics: new ClientMetricsService(metricsQueueFor(config, metricsStore, options), clientApplications, clientFeatures, options.now),
  };
}

export type ClientServices = ReturnType<typeof createClientServices>;

export interface ClientServicesOptions {
  /** Where SDK metrics reports go: the local runtime's queue (scripts/local/metrics-queue.ts). */
  metricsQueue?: MetricsQueue;
  /** A test's clock: when registrations lapse and which hour a report counts in. */
  now?: () => Date;
}

/**
 * Reports go to the queue the runtime gives, else to SQS when configured (the cloud, ADR 15),
 * else through both metrics stages in the request (tests, `npm run invoke`).
 */
function metricsQueueFor(config: AppConfig, metricsStore: DynamoMetricsStore, options: ClientServicesOptions): MetricsQueue {
  if (options.metricsQueue) return options.metricsQueue;
  if (config.metricsQueueUrl) return new SqsMetricsQueue(config.metricsQueueUrl, config.region);
  return directMetricsQueue(new MetricsWriter(metricsStore));
}
