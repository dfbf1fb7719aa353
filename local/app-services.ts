import type { ClientApplicationStore, MetricsStore } from '../lib/client/store.js';
import type { LastSeenReader } from '../lib/features/ports.js';
import type { SegmentStore } from '../lib/segments/store.js';
import { clients as clientSlice } from '../lib/composition/slices/client.js';
import { eventStore, featureStore as featureStoreOf, metricsStore as metricsStoreOf, segmentStore as segmentStoreOf } from '../lib/composition/stores.js';
import type { Composition } from '../lib/composition/composition.js';
import { frontendOrigins as edgeFrontendOrigins } from '../lib/composition/edge.js';
import { contextFields as contextFieldSlice } from '../lib/composition/slices/context-fields.js';
import { environments as environmentSlice } from '../lib/composition/slices/environments.js';
import { events as eventSlice } from '../lib/composition/slices/events.js';
import { features as featureSlice } from '../lib/composition/slices/features.js';
import { applications as applicationSlice } from '../lib/composition/slices/applications.js';
import { insights as insightSlice } from '../lib/composition/slices/insights.js';
import { instance as instanceSlice } from '../lib/composition/slices/instance.js';
import { personalTokens as personalTokenSlice } from '../lib/composition/slices/personal-access-tokens.js';
import { maintenanceMode as maintenanceSlice } from '../lib/composition/slices/maintenance.js';
import { userSettings as userSettingsSlice } from '../lib/composition/slices/user-settings.js';
import { projects as projectSlice } from '../lib/composition/slices/projects.js';
import { state as stateSlice } from '../lib/composition/slices/state.js';
import { segments as segmentSlice } from '../lib/composition/slices/segments.js';
import { strategies as strategySlice } from '../lib/composition/slices/strategies.js';
import { apiTokens as apiTokenSlice } from '../lib/composition/slices/api-tokens.js';
import { auth as authSlice } from '../lib/composition/slices/auth.js';
import { groups as groupSlice } from '../lib/composition/slices/groups.js';
import { users as userSlice } from '../lib/composition/slices/users.js';
import { tagTypes as tagTypeSlice } from '../lib/composition/slices/tag-types.js';
import { transfer as transferSlice } from '../lib/composition/slices/transfer.js';
import { oidcSettings as edgeOidcSettings } from '../lib/composition/session-edge.js';

/**
 * Every slice's services by name, for the one process that serves every function at once: the
 * local runtime (first start, bootstrap tokens, scheduled tasks) and the tests, which arrange
 * data through services and call the same handlers over HTTP events. Nothing deployed imports
 * it: a function composes only its own slices (functions/<group>/handler.ts). Each service is the
 * slice's own instance on the composition (`composition.once`), so a write made here reaches the
 * handlers' revision clock, token cache and feature snapshot.
 */
export function createServices(c: Composition) {
  return c.once(allServices);
}

function allServices(c: Composition) {
  const { config } = c;
  // The SDK API's slice is shared, not repeated: same feature snapshot, revision clock and token cache.
  const sdk = c.once(clientSlice);
  const featureStore = c.once(featureStoreOf);
  const { revisions } = c.store;
  // Admin callers see the shared adapters through the ports they need.
  const lastSeen: LastSeenReader = c.once(metricsStoreOf);
  const metrics: MetricsStore = c.once(metricsStoreOf);
  const clientApplications: ClientApplicationStore = sdk.clientApplications;
  const segmentStore: SegmentStore = c.once(segmentStoreOf);
  const events = c.once(eventStore);
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
    clientFeatures: sdk.clientFeatures, clientMetrics: sdk.clientMetrics, clientApplications,
    /** Where browsers may call the Frontend API from (its own function in the cloud, functions/frontend/handler.ts). */
    frontendOrigins,
    /** When SDKs last reported each feature, for the admin feature views. */
    lastSeen, metrics,
    apiTokens, strategyTypes, users, groups, oidcSettings,
    /** People's own personal access tokens. */
    personalTokens: c.once(personalTokenSlice).personalTokens,
    /** Maintenance mode: while on, changes to the admin API are refused. */
    maintenance: c.once(maintenanceSlice).maintenance,
    /** The splash screens and feedback the admin UI remembers per person. */
    userSettings: c.once(userSettingsSlice).userSettings,
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
