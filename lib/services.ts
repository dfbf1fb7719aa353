import packageJson from '../package.json' with { type: 'json' };
import type { AppConfig } from './config.js';
import { ClientFeatureService } from './client/features-service.js';
import { ClientMetricsService } from './client/metrics-service.js';
import type { ClientApplicationStore, MetricsStore } from './client/store.js';
import type { LastSeenReader } from './features/ports.js';
import { UiConfigService } from './instance/ui-config.js';
import { builtInScopeCatalog } from './projects/scope-catalog.js';
import type { SegmentStore } from './segments/store.js';
import { DynamoApiTokenStore } from './store/api-token-store.js';
import { DynamoClientApplicationStore } from './store/client-app-store.js';
import { DynamoFeatureStore } from './store/feature-store.js';
import { createDocumentClient } from './store/document-client.js';
import { DynamoInstanceStore } from './store/instance-store.js';
import { DynamoMetricsStore } from './store/metrics-store.js';
import { DynamoRevisionStore } from './store/revision-store.js';
import { DynamoStrategyTypeStore } from './store/strategy-type-store.js';
import { StrategyTypeService } from './strategies/service.js';
import { ApiTokenService } from './tokens/service.js';

/** The composition root: builds every service from one parsed configuration. */
export function createServices(config: AppConfig) {
  const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
  const table = config.tableName;
  const revisions = new DynamoRevisionStore(db, table);
  const featureStore = new DynamoFeatureStore(db, table, revisions);
  const metricsStore = new DynamoMetricsStore(db, table);
  // Until the segment store is wired here: no strategy can refer to a segment before it exists.
  const segmentStore: SegmentStore = { list: async () => [], get: async () => undefined };
  const clientApplications = new DynamoClientApplicationStore(db, table);
  return {
    config,
    revisions,
    featureStore,
    clientFeatures: new ClientFeatureService(featureStore, segmentStore, revisions),
    clientMetrics: new ClientMetricsService(metricsStore, clientApplications),
    clientApplications: clientApplications as ClientApplicationStore,
    /** When SDKs last reported each feature, for the admin feature views. */
    lastSeen: metricsStore as LastSeenReader,
    metrics: metricsStore as MetricsStore,
    apiTokens: new ApiTokenService(new DynamoApiTokenStore(db, table), builtInScopeCatalog, config.baseUriPath),
    strategyTypes: new StrategyTypeService(new DynamoStrategyTypeStore(db, table)),
    uiConfig: new UiConfigService(
      { version: packageJson.version, unleashUrl: config.unleashUrl, baseUriPath: config.baseUriPath },
      new DynamoInstanceStore(db, table),
    ),
  };
}

export type Services = ReturnType<typeof createServices>;
