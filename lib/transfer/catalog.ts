import type { Environment } from '../environments/model.js';
import { NotFound } from '../errors.js';
import type { ContextField } from '../context-fields/model.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { TagType } from '../tag-types/model.js';
import type { TransferCatalog } from './ports.js';

export interface TransferSources {
  environments: { list(): Promise<Environment[]> };
  projects: { getProject(id: string): Promise<Project> };
  contextFields: { list(): Promise<ContextField[]>; create(input: Omit<ContextField, 'createdAt'>): Promise<unknown> };
  segmentStore: { list(): Promise<Segment[]> };
  tagTypes: { list(): Promise<TagType[]>; create(name: string, input: { description: string | null; icon: string | null }): Promise<unknown> };
  strategyTypes: { get(name: string): Promise<unknown> };
}

export function transferCatalog(sources: TransferSources): TransferCatalog {
  return {
    environments: () => sources.environments.list(),
    project: (id) => sources.projects.getProject(id),
    contextFields: () => sources.contextFields.list(),
    createContextField: async (field) => void (await sources.contextFields.create(field)),
    segments: () => sources.segmentStore.list(),
    tagTypes: () => sources.tagTypes.list(),
    createTagType: async ({ name, description, icon }) => void (await sources.tagTypes.create(name, { description, icon })),
    strategyTypeExists: async (name) => {
      try {
        await sources.strategyTypes.get(name);
        return true;
      } catch (error) {
        if (error instanceof NotFound) return false;
        throw error;
      }
    },
  };
}
