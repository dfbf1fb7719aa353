import packageJson from '../../package.json' with { type: 'json' };
import type { AppConfig } from '../config.js';
import { createClientServices } from './client-services.js';
import type { ClientApplicationStore, MetricsStore } from '../client/store.js';
import { ContextFieldService } from '../context-fields/service.js';
import { featureCatalog } from '../features/catalog.js';
import { transferCatalog } from '../transfer/catalog.js';
import { ExportService } from '../transfer/export-service.js';
import { ImportService } from '../transfer/import-service.js';
import { StateExportService } from '../state/service.js';
import { ProjectStatsService } from '../insights/project-stats-service.js';
import { InsightsService } from '../insights/service.js';
import { DynamoSnapshotStore } from '../insights/dynamo-store.js';
import { createFeatureServices } from './feature-services.js';
import type { LastSeenReader } from '../features/ports.js';
import { FirstStart } from '../instance/first-start.js';
import { UiConfigService } from '../instance/ui-config.js';
import { EnvironmentService } from '../environments/service.js';
import { ProjectEnvironmentService } from '../projects/project-environments.js';
import { ProjectService } from '../projects/project-service.js';
import { storedScopeCatalog } from '../projects/scope-catalog.js';
import { SegmentService } from '../segments/service.js';
import type { SegmentStore } from '../segments/store.js';
import { DynamoContextFieldStore } from '../context-fields/dynamo-store.js';
import { DynamoEnvironmentStore } from '../environments/dynamo-store.js';
import { DynamoEventStore } from '../events/dynamo-store.js';
import { DynamoInstanceStore } from '../instance/dynamo-store.js';
import { DynamoProjectStore } from '../projects/dynamo-store.js';
import { DynamoSeedStore } from '../instance/dynamo-seed-store.js';
import { DynamoStrategyTypeStore } from '../strategies/dynamo-store.js';
import { DynamoTagTypeStore } from '../tag-types/dynamo-store.js';
import { StrategyTypeService } from '../strategies/service.js';
import { TagTypeService } from '../tag-types/service.js';
import { ApiTokenService } from '../tokens/service.js';
import { GroupService } from '../groups/service.js';
import { OidcSettingsService } from '../oidc/service.js';
import { keyMaterialSource } from '../secrets/key-source.js';
import { SecretBox } from '../secrets/secret-box.js';
import { SignupTokenService } from '../signup-tokens/service.js';
import { DynamoGroupStore } from '../groups/dynamo-store.js';
import { DynamoOidcSettingsStore } from '../oidc/dynamo-store.js';
import { DynamoSignupTokenStore } from '../signup-tokens/dynamo-store.js';
import { DynamoUserStore } from '../users/dynamo-store.js';
import { UserService } from '../users/service.js';

/** The composition root: builds every service from one parsed configuration. */
export function createServices(config: AppConfig) {
  // The SDK path's wiring is shared, not repeated: same stores, revision clock and token cache.
  const sdk = createClientServices(config);
  const { db, tableName: table, revisions } = sdk.store;
  const { featureStore, metricsStore, segmentStore, clientApplications } = sdk;
  const projectStore = new DynamoProjectStore(db, table, revisions);
  const environmentStore = new DynamoEnvironmentStore(db, table);
  const scopeCatalog = storedScopeCatalog(projectStore, environmentStore);
  const strategyTypes = new StrategyTypeService(new DynamoStrategyTypeStore(db, table), featureStore);
  // Groups resolve members through the user store; deleting a user asks the groups it is in.
  const userStore = new DynamoUserStore(db, table);
  const groups = new GroupService(new DynamoGroupStore(db, table), userStore);
  const users = new UserService(userStore, groups);
  const oidcSettings = new OidcSettingsService(new DynamoOidcSettingsStore(db, table), new SecretBox(keyMaterialSource(config)));
  const services = {
    config,
    revisions,
    dynamoRequests: sdk.dynamoRequests,
    featureStore,
    /** Change events, written by the stores inside each change's transaction. */
    events: new DynamoEventStore(db, table),
    clientFeatures: sdk.clientFeatures,
    clientMetrics: sdk.clientMetrics,
    clientApplications: clientApplications as ClientApplicationStore,
    /** When SDKs last reported each feature, for the admin feature views. */
    lastSeen: metricsStore as LastSeenReader,
    metrics: metricsStore as MetricsStore,
    apiTokens: new ApiTokenService(sdk.tokenStore, scopeCatalog, sdk.tokens),
    strategyTypes,
    users,
    groups,
    oidcSettings,
    signupTokens: new SignupTokenService(new DynamoSignupTokenStore(db, table), users, config.unleashUrl),
    /** Writes a fresh install's data once per table (local start, tests, cloud bootstrap). */
    firstStart: new FirstStart(new DynamoSeedStore(db, table)),
    projects: new ProjectService(projectStore, environmentStore, featureStore),
    projectEnvironments: new ProjectEnvironmentService(projectStore, environmentStore, strategyTypes),
    environments: new EnvironmentService(environmentStore),
    /** Read-only segments for the SDK payload and the feature services. */
    segmentStore: segmentStore as SegmentStore,
    segments: new SegmentService(segmentStore, scopeCatalog, featureStore),
    contextFields: new ContextFieldService(new DynamoContextFieldStore(db, table)),
    tagTypes: new TagTypeService(new DynamoTagTypeStore(db, table)),
    uiConfig: new UiConfigService(
      { version: packageJson.version, unleashUrl: config.unleashUrl, baseUriPath: config.baseUriPath },
      new DynamoInstanceStore(db, table),
      oidcSettings,
    ),
  };
  const features = createFeatureServices(featureStore, featureCatalog(services), services.lastSeen);
  const transfers = transferCatalog(services);
  return {
    ...services,
    features,
    state: new StateExportService({ ...services, features: featureStore }),
    projectStats: new ProjectStatsService(featureStore, services.environments, services.events),
    insights: new InsightsService(
      { ...services, features: featureStore, usage: (day) => metricsStore.hourlyCounts(day) },
      new DynamoSnapshotStore(db, table),
    ),
    transfer: {
      exports: new ExportService(featureStore, transfers),
      imports: new ImportService(features.aggregates, transfers),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
