import type { ClientApplicationStore, MetricsStore } from '../client/store.js';
import { DynamoEventStore } from '../events/dynamo-store.js';
import type { LastSeenReader } from '../features/ports.js';
import type { SegmentStore } from '../segments/store.js';
import { DynamoStrategyTypeStore } from '../strategies/dynamo-store.js';
import { StrategyTypeService } from '../strategies/service.js';
import { clients as clientSlice } from './slices/client.js';
import { featureStore as featureStoreOf, metricsStore as metricsStoreOf, segmentStore as segmentStoreOf } from './stores.js';
import type { StoreContext } from '../store/context.js';
import type { Composition } from './composition.js';
import { frontendOrigins as edgeFrontendOrigins } from './edge.js';
import { contextFields as contextFieldSlice } from './slices/context-fields.js';
import { environments as environmentSlice } from './slices/environments.js';
import { events as eventSlice } from './slices/events.js';
import { features as featureSlice } from './slices/features.js';
import { applications as applicationSlice } from './slices/applications.js';
import { insights as insightSlice } from './slices/insights.js';
import { instance as instanceSlice } from './slices/instance.js';
import { uiSupport as uiSupportSlice } from './slices/ui-support.js';
import { projects as projectSlice } from './slices/projects.js';
import { state as stateSlice } from './slices/state.js';
import { segments as segmentSlice } from './slices/segments.js';
import { strategies as strategySlice } from './slices/strategies.js';
import { apiTokens as apiTokenSlice } from './slices/api-tokens.js';
import { auth as authSlice } from './slices/auth.js';
import { groups as groupSlice } from './slices/groups.js';
import { users as userSlice } from './slices/users.js';
import { tagTypes as tagTypeSlice } from './slices/tag-types.js';
import { transfer as transferSlice } from './slices/transfer.js';
import { oidcSettings as edgeOidcSettings } from './session-edge.js';

/**
 * The composition root: builds every service from one parsed configuration, on the same
 * once-builders the functions' slices use (the SDK API's slice among them), so a write here
 * reaches the same revision clock, token cache and feature snapshot. Every resource's services
 * are built here the same way, the feature services included (they once had a builder of their own, the one resource that did):
 * from named stores and services, and where a service reads other resources, from the port its
 * own folder declares, bound in lib/composition/slices/. Nothing is filled from this object as a whole.
 */
export function createServices(c: Composition) {
  return c.once(allServices);
}

function allServices(c: Composition) {
  const { config } = c;
  const options = { now: c.now };
  // The SDK API's slice is shared, not repeated: same feature snapshot, revision clock and token cache.
  const sdk = c.once(clientSlice);
  const featureStore = c.once(featureStoreOf);
  const { revisions } = c.store;
  const stores = adminStores(c.store);
  // Admin callers see the shared adapters through the ports they need.
  const lastSeen: LastSeenReader = c.once(metricsStoreOf);
  const metrics: MetricsStore = c.once(metricsStoreOf);
  const clientApplications: ClientApplicationStore = sdk.clientApplications;
  const segmentStore: SegmentStore = c.once(segmentStoreOf);
  const events = stores.eventStore;
  const frontendOrigins = c.once(edgeFrontendOrigins);
  const { projects, projectEnvironments } = c.once(projectSlice);
  const environments = c.once(environmentSlice).environments;
  const strategyTypes = c.once(strategySlice).strategyTypes;
  const contextFields = c.once(contextFieldSlice).contextFields;
  const tagTypes = c.once(tagTypeSlice).tagTypes;
  const groups = c.once(groupSlice).groups;
  const users = c.once(userSlice).users;
  const apiTokens = c.once(apiTokenSlice).apiTokens;
  const oidcSettings = c.once(edgeOidcSettings);
  const features = c.once(featureSlice).features;
  return {
    /** The composition these services were built on (the test API and the local runtime build handlers on it). */
    composition: c,
    config, revisions, dynamoRequests: c.store.dynamoRequests, featureStore,
    /** Change events, written by the stores inside each change's transaction. */
    events,
    /** The event log (Unleash's event search) over them. */
    eventSearch: c.once(eventSlice).eventSearch,
    /** The applications SDKs registered, for the admin UI. */
    applications: c.once(applicationSlice).applications,
    /** What the admin UI's pages need besides the resources (lib/ui-support). */
    uiSupport: c.once(uiSupportSlice).uiSupport,
    clientFeatures: sdk.clientFeatures, clientMetrics: sdk.clientMetrics, clientApplications,
    /** Where browsers may call the Frontend API from (its own function in the cloud, functions/frontend/handler.ts). */
    frontendOrigins,
    /** When SDKs last reported each feature, for the admin feature views. */
    lastSeen, metrics,
    apiTokens, strategyTypes, users, groups, oidcSettings,
    /** People's passwords: login, change, reset links, invite signup. */
    auth: c.once(authSlice).auth,
    /** Writes a fresh install's data once per table (local start, tests, cloud bootstrap). */
    firstStart: c.once(instanceSlice).firstStart,
    /** Each feature's copy in its project's partition, made on tables from before ADR 17 (bootstrap, local start). */
    projectCopies: featureStore.projectCopies,
    projects,
    projectEnvironments,
    environments,
    /** Read-only segments for the SDK payload and the feature services. */
    segmentStore,
    segments: c.once(segmentSlice).segments,
    contextFields, tagTypes,
    uiConfig: c.once(instanceSlice).uiConfig,
    features,
    state: c.once(stateSlice).state,
    projectStats: c.once(insightSlice).projectStats,
    insights: c.once(insightSlice).insights,
    transfer: c.once(transferSlice).transfer,
  };
}

export type Services = ReturnType<typeof allServices>;

/** The DynamoDB adapters only the admin API uses; the SDK root built the ones it shares. */
function adminStores({ db, tableName: table }: StoreContext) {
  return {
    eventStore: new DynamoEventStore(db, table),
    strategyTypeStore: new DynamoStrategyTypeStore(db, table),
  };
}
