import type { MetricsStore } from '../client/store.js';
import type { ContextFieldService } from '../context-fields/service.js';
import type { EnvironmentService } from '../environments/service.js';
import { NotFound } from '../errors.js';
import type { EventReader } from '../events/store.js';
import type { FeatureCatalog } from '../features/ports.js';
import type { FeatureStore } from '../features/store.js';
import type { InsightCatalog } from '../insights/ports.js';
import type { ProjectService } from '../projects/project-service.js';
import type { SegmentStore } from '../segments/store.js';
import type { StateCatalog } from '../state/ports.js';
import type { StrategyTypeService } from '../strategies/service.js';
import type { TagTypeService } from '../tag-types/service.js';
import type { ApiTokenService } from '../tokens/service.js';
import type { TransferCatalog } from '../transfer/ports.js';
import type { UserService } from '../users/service.js';

/*
 * The ports a resource declares for reading other resources (lib/<resource>/ports.ts), each
 * built from the named stores and services it reads, so a consumer depends on what it asks
 * and the root shows every edge between resources.
 */

export function featureCatalog(from: {
  projects: ProjectService;
  strategyTypes: StrategyTypeService;
  segmentStore: SegmentStore;
  contextFields: ContextFieldService;
  tagTypes: TagTypeService;
}): FeatureCatalog {
  const { projects, strategyTypes, segmentStore, contextFields, tagTypes } = from;
  return {
    project: (id) => projects.getProject(id),
    environmentsOf: (project) => projects.environmentsOfProject(project),
    allEnvironments: () => projects.listEnvironments(),
    strategyTypeExists: (name) => strategyTypeExists(strategyTypes, name),
    segment: (id) => segmentStore.get(id),
    contextField: (name) => contextFields.find(name),
    tagTypeExists: (name) => tagTypes.exists(name),
    activeFeatureCount: () => projects.activeFeatureCount(),
  };
}

export function transferCatalog(from: {
  environments: EnvironmentService;
  projects: ProjectService;
  contextFields: ContextFieldService;
  segmentStore: SegmentStore;
  tagTypes: TagTypeService;
  strategyTypes: StrategyTypeService;
}): TransferCatalog {
  const { environments, projects, contextFields, segmentStore, tagTypes, strategyTypes } = from;
  return {
    environments: () => environments.list(),
    project: (id) => projects.getProject(id),
    contextFields: () => contextFields.list(),
    createContextField: async (field) => void (await contextFields.create(field)),
    segments: () => segmentStore.list(),
    tagTypes: () => tagTypes.list(),
    createTagType: async ({ name, description, icon }) => void (await tagTypes.create(name, { description, icon })),
    strategyTypeExists: (name) => strategyTypeExists(strategyTypes, name),
  };
}

export function stateCatalog(from: {
  featureStore: FeatureStore;
  strategyTypes: StrategyTypeService;
  projects: ProjectService;
  tagTypes: TagTypeService;
  environments: EnvironmentService;
  apiTokens: ApiTokenService;
  segmentStore: SegmentStore;
  events: EventReader;
}): StateCatalog {
  const { featureStore, strategyTypes, projects, tagTypes, environments, apiTokens, segmentStore, events } = from;
  return {
    allFeatures: () => featureStore.listAll(),
    activeFeatureCount: () => projects.activeFeatureCount(),
    strategyTypes: () => strategyTypes.list(),
    projects: (features) => projects.list(features),
    tagTypes: () => tagTypes.list(),
    environments: () => environments.list(),
    apiTokens: () => apiTokens.list(),
    segments: () => segmentStore.list(),
    eventsBetween: (start, end) => events.between(start, end),
  };
}

export function insightCatalog(from: {
  users: UserService;
  featureStore: FeatureStore;
  projects: ProjectService;
  environments: EnvironmentService;
  events: EventReader;
  metrics: MetricsStore;
}): InsightCatalog {
  const { users, featureStore, projects, environments, events, metrics } = from;
  return {
    users: () => users.list(),
    allFeatures: () => featureStore.listAll(),
    projectFeatures: (projectId) => featureStore.listProject(projectId),
    projects: () => projects.list(),
    environments: () => environments.list(),
    eventsBetween: (start, end) => events.between(start, end),
    usage: (day) => metrics.hourlyCounts(day),
  };
}

/** Strategy types answer NotFound rather than nothing; both catalogues only ask whether one exists. */
async function strategyTypeExists(strategyTypes: StrategyTypeService, name: string): Promise<boolean> {
  try {
    await strategyTypes.get(name);
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}
