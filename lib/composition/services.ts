import packageJson from '../../package.json' with { type: 'json' };
import type { ClientApplicationStore, MetricsStore } from '../client/store.js';
import { ContextFieldService } from '../context-fields/service.js';
import { DynamoContextFieldStore } from '../context-fields/dynamo-store.js';
import { DynamoEnvironmentStore } from '../environments/dynamo-store.js';
import { EnvironmentService } from '../environments/service.js';
import { ApplicationService } from '../applications/service.js';
import { DynamoEventStore } from '../events/dynamo-store.js';
import { EventSearchService } from '../events/service.js';
import { FeatureAggregates } from '../features/aggregate.js';
import { FeatureLifecycleService } from '../features/lifecycle-service.js';
import type { FeatureCatalog, LastSeenReader, UsageReader } from '../features/ports.js';
import { FeatureRelationService } from '../features/relation-service.js';
import { FeatureSearchService, type EveryFeature } from '../features/search-service.js';
import type { FeatureStore } from '../features/store.js';
import { FeatureStrategyService } from '../features/strategy-service.js';
import { FeatureUsageService } from '../features/usage-service.js';
import { FeatureVariantService } from '../features/variant-service.js';
import { FeatureViews } from '../features/views.js';
import { DynamoSnapshotStore } from '../insights/dynamo-store.js';
import { ProjectStatsService } from '../insights/project-stats-service.js';
import { InsightsService } from '../insights/service.js';
import { DynamoInstanceStore } from '../instance/dynamo-store.js';
import { DynamoSeedStore } from '../instance/dynamo-seed-store.js';
import { FirstStart } from '../instance/first-start.js';
import { UiConfigService } from '../instance/ui-config.js';
import { LoginMethods } from '../auth/login-methods.js';
import { OidcSettingsService } from '../oidc/service.js';
import { DynamoProjectStore } from '../projects/dynamo-store.js';
import { ProjectEnvironmentService } from '../projects/project-environments.js';
import { ProjectService } from '../projects/project-service.js';
import { storedScopeCatalog } from '../projects/scope-catalog.js';
import { keyMaterialSource } from '../secrets/key-source.js';
import { SecretBox } from '../secrets/secret-box.js';
import { SegmentService } from '../segments/service.js';
import type { SegmentStore } from '../segments/store.js';
import { StateExportService } from '../state/service.js';
import { DynamoStrategyTypeStore } from '../strategies/dynamo-store.js';
import { StrategyTypeService } from '../strategies/service.js';
import { DynamoTagStore, DynamoTagTypeStore } from '../tag-types/dynamo-store.js';
import { TagTypeService } from '../tag-types/service.js';
import { UiSupportService } from '../ui-support/service.js';
import { ExportService } from '../transfer/export-service.js';
import { ImportService } from '../transfer/import-service.js';
import { groupRootRolesOf, SessionService } from '../sessions/service.js';
import { featureCatalog, insightCatalog, stateCatalog, transferCatalog } from './catalogs.js';
import { createClientServices } from './client-services.js';
import type { StoreContext } from '../store/context.js';
import type { Composition } from './composition.js';
import { frontendOrigins as edgeFrontendOrigins } from './edge.js';
import { strategies as strategySlice } from './slices/strategies.js';
import { apiTokens as apiTokenSlice } from './slices/api-tokens.js';
import { auth as authSlice } from './slices/auth.js';
import { groups as groupSlice } from './slices/groups.js';
import { oidc as oidcSlice } from './slices/oidc.js';
import { signupTokens as signupTokenSlice } from './slices/signup-tokens.js';
import { users as userSlice } from './slices/users.js';
import { loginMethods as edgeLoginMethods, oidcSettings as edgeOidcSettings, sessions as edgeSessions } from './session-edge.js';

/**
 * The composition root: builds every service from one parsed configuration, on top of the SDK
 * root (client-services.ts), which stays a root of its own only so the client function's bundle
 * holds no admin module (ADR 9). Every resource's services are built here the same way, the
 * feature services included (they once had a builder of their own, the one resource that did):
 * from named stores and services, and where a service reads other resources, from the port its
 * own folder declares, built in catalogs.ts. Nothing is filled from this object as a whole.
 */
export function createServices(c: Composition) {
  return c.once(allServices);
}

function allServices(c: Composition) {
  const { config } = c;
  const options = { now: c.now };
  // The SDK path's wiring is shared, not repeated: same stores, revision clock and token cache.
  const sdk = createClientServices(c);
  const { featureStore, revisions } = sdk;
  const stores = adminStores(sdk.store);
  // Admin callers see the SDK root's stores through the ports they need, not as DynamoDB adapters.
  const lastSeen: LastSeenReader = sdk.metricsStore;
  const metrics: MetricsStore = sdk.metricsStore;
  const clientApplications: ClientApplicationStore = sdk.clientApplications;
  const segmentStore: SegmentStore = sdk.segmentStore;
  const events = stores.eventStore;
  const frontendOrigins = c.once(edgeFrontendOrigins);
  const scopeCatalog = storedScopeCatalog(stores.projectStore, stores.environmentStore);
  const projects = new ProjectService(stores.projectStore, stores.environmentStore, featureStore);
  const environments = new EnvironmentService(stores.environmentStore);
  const strategyTypes = c.once(strategySlice).strategyTypes;
  // The SDK snapshot (ADR 20): the unfiltered search and the admin UI's usage lists filter it in memory.
  const everyFeature: EveryFeature = () => sdk.clientFeatures.everyFeature();
  const contextFields = new ContextFieldService(stores.contextFieldStore, everyFeature);
  const tagTypes = new TagTypeService(stores.tagTypeStore, stores.tagStore);
  const groups = c.once(groupSlice).groups;
  const users = c.once(userSlice).users;
  const apiTokens = c.once(apiTokenSlice).apiTokens;
  const signupTokens = c.once(signupTokenSlice).signupTokens;
  const oidcSettings = c.once(edgeOidcSettings);
  const loginMethods = c.once(edgeLoginMethods);
  const sessions = c.once(edgeSessions);
  const oidcLogin = c.once(oidcSlice).oidcLogin;
  const features = featureServices(
    featureStore, featureCatalog({ projects, strategyTypes, segmentStore, contextFields, tagTypes }), metrics, everyFeature, options.now,
  );
  const transfers = transferCatalog({ environments, projects, contextFields, segmentStore, tagTypes, strategyTypes });
  const insightReads = insightCatalog({ users, featureStore, projects, environments, events, metrics });
  return {
    /** The composition these services were built on (the test API and the local runtime build handlers on it). */
    composition: c,
    config, revisions, dynamoRequests: sdk.dynamoRequests, featureStore,
    /** Change events, written by the stores inside each change's transaction. */
    events,
    /** The event log (Unleash's event search) over them. */
    eventSearch: new EventSearchService(events),
    /** The applications SDKs registered, for the admin UI. */
    applications: new ApplicationService(sdk.clientApplications, options.now),
    /** What the admin UI's pages need besides the resources (lib/ui-support). */
    uiSupport: new UiSupportService(projects, featureStore),
    clientFeatures: sdk.clientFeatures, clientMetrics: sdk.clientMetrics, clientApplications,
    /** Where browsers may call the Frontend API from (its own function in the cloud, functions/frontend/handler.ts). */
    frontendOrigins,
    /** When SDKs last reported each feature, for the admin feature views. */
    lastSeen, metrics,
    apiTokens, strategyTypes, users, groups, oidcSettings,
    signupTokens, sessions,
    /** People's passwords: login, change, reset links, invite signup. */
    auth: c.once(authSlice).auth,
    /** Which ways to log in are open: the password, single sign-on (the UI's login page, the simple-auth setting). */
    loginMethods,
    /** Single sign-on through the OIDC settings' provider. */
    oidcLogin,
    /** Writes a fresh install's data once per table (local start, tests, cloud bootstrap). */
    firstStart: new FirstStart(stores.seedStore),
    /** Each feature's copy in its project's partition, made on tables from before ADR 17 (bootstrap, local start). */
    projectCopies: featureStore.projectCopies,
    projects,
    projectEnvironments: new ProjectEnvironmentService(stores.projectStore, stores.environmentStore, strategyTypes),
    environments,
    /** Read-only segments for the SDK payload and the feature services. */
    segmentStore,
    segments: new SegmentService(sdk.segmentStore, scopeCatalog, featureStore, everyFeature),
    contextFields, tagTypes,
    uiConfig: new UiConfigService(
      { version: packageJson.version, unleashUrl: config.unleashUrl, baseUriPath: config.baseUriPath },
      stores.instanceStore,
      loginMethods,
      frontendOrigins,
    ),
    features,
    state: new StateExportService(stateCatalog({ featureStore, strategyTypes, projects, tagTypes, environments, apiTokens, segmentStore, events })),
    projectStats: new ProjectStatsService(insightReads),
    insights: new InsightsService(insightReads, stores.snapshotStore),
    transfer: { exports: new ExportService(featureStore, transfers), imports: new ImportService(features.aggregates, transfers) },
  };
}

export type Services = ReturnType<typeof allServices>;

/** The feature services, sharing one optimistic-concurrency runner over the store. */
/** `metrics` answers last-seen times for the views and the hourly counters for a feature's usage. */
/** `everyFeature` is the SDK snapshot the unfiltered search filters (ADR 20). */
/** `now`: a test's clock for the usage reads, which name the current hour. */
function featureServices(
  featureStore: FeatureStore, catalog: FeatureCatalog, metrics: LastSeenReader & UsageReader, everyFeature: EveryFeature, now?: () => Date,
) {
  const aggregates = new FeatureAggregates(featureStore);
  return {
    aggregates,
    lifecycle: new FeatureLifecycleService(aggregates, catalog),
    strategies: new FeatureStrategyService(aggregates, catalog),
    variants: new FeatureVariantService(aggregates, catalog),
    relations: new FeatureRelationService(aggregates, catalog),
    views: new FeatureViews(catalog, metrics),
    search: new FeatureSearchService(featureStore, catalog, metrics, everyFeature),
    usage: new FeatureUsageService(featureStore, metrics, now),
  };
}

/** The DynamoDB adapters only the admin API uses; the SDK root built the ones it shares. */
function adminStores({ db, tableName: table, revisions }: StoreContext) {
  return {
    projectStore: new DynamoProjectStore(db, table, revisions),
    environmentStore: new DynamoEnvironmentStore(db, table),
    eventStore: new DynamoEventStore(db, table),
    strategyTypeStore: new DynamoStrategyTypeStore(db, table),
    contextFieldStore: new DynamoContextFieldStore(db, table),
    tagTypeStore: new DynamoTagTypeStore(db, table),
    tagStore: new DynamoTagStore(db, table),
    seedStore: new DynamoSeedStore(db, table),
    instanceStore: new DynamoInstanceStore(db, table),
    snapshotStore: new DynamoSnapshotStore(db, table),
  };
}
