import type { Environment } from '../environments/model.js';
import { NotFound } from '../errors.js';
import type { ContextField } from '../context-fields/model.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { FeatureCatalog } from './ports.js';

/** The parts of other services the feature catalogue answers from. */
export interface CatalogSources {
  projects: {
    getProject(id: string): Promise<Project>;
    environmentsOfProject(project: Project): Promise<Environment[]>;
    listEnvironments(): Promise<Environment[]>;
  };
  strategyTypes: { get(name: string): Promise<unknown> };
  segmentStore: { get(id: number): Promise<Segment | undefined> };
  contextFields: { get(name: string): Promise<ContextField> };
  tagTypes: { exists(name: string): Promise<boolean> };
}

export function featureCatalog(sources: CatalogSources): FeatureCatalog {
  return {
    project: (id) => sources.projects.getProject(id),
    environmentsOf: (project) => sources.projects.environmentsOfProject(project),
    allEnvironments: () => sources.projects.listEnvironments(),
    strategyTypeExists: async (name) => (await unlessNotFound(() => sources.strategyTypes.get(name))) !== undefined,
    segment: (id) => sources.segmentStore.get(id),
    contextField: (name) => unlessNotFound(() => sources.contextFields.get(name)),
    tagTypeExists: (name) => sources.tagTypes.exists(name),
  };
}

async function unlessNotFound<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}
