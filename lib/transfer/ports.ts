import type { ContextField } from '../context-fields/model.js';
import type { Environment } from '../environments/model.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { TagType } from '../tag-types/model.js';

/**
 * What export and import read from, and create in, the rest of the catalogue. The composition
 * root builds it (lib/composition/catalogs.ts) from the environment, project, context-field,
 * segment, tag-type and strategy-type services.
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
