import type { ContextField } from '../context-fields/model.js';
import type { Environment } from '../environments/model.js';
import type { FeatureAggregates } from '../features/aggregate.js';
import type { FeatureStore } from '../features/store.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { TagType } from '../tag-types/model.js';

/**
 * What export and import read from, and create in, the rest of the catalogue. Its binding builds
 * it (lib/composition/slices/transfer.ts) from the environment, project and segment adapters and
 * the context-field, tag-type and strategy-type services.
 */
export interface TransferCatalog {
  environments(): Promise<Environment[]>;
  project(id: string): Promise<Project>;
  contextFields(): Promise<ContextField[]>;
  createContextField(field: Omit<ContextField, 'createdAt'>): Promise<void>;
  segments(): Promise<Segment[]>;
  tagTypes(): Promise<TagType[]>;
  createTagType(type: TagType): Promise<void>;
  strategyTypeExists(name: string): Promise<boolean>;
}

/** What export and import read of other resources, and where an import writes features. */
export interface TransferPorts {
  catalog: TransferCatalog;
  /** Every feature, archived ones too: what an export selects from. */
  features: Pick<FeatureStore, 'listAll'>;
  /** The feature slice's writes: an import's features go through the same optimistic runner as the feature endpoints'. */
  featureWrites: FeatureAggregates;
}
