import type { Environment } from '../environments/model.js';
import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import type { ProjectSummary } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { StrategyType } from '../strategies/model.js';
import type { TagType } from '../tag-types/model.js';
import type { ApiToken } from '../tokens/model.js';

/**
 * What the state export reads from the rest of the instance, bound to the stores it reads in
 * lib/composition/slices/state.ts.
 */
export interface StateCatalog {
  /** Every feature, archived ones included (the export leaves archived ones out itself). */
  allFeatures(): Promise<readonly Feature[]>;
  /** Active features of every project, counted without reading them. */
  activeFeatureCount(): Promise<number>;
  strategyTypes(): Promise<StrategyType[]>;
  /** Every project with its health, from the features already read. */
  projects(features: readonly Feature[]): Promise<ProjectSummary[]>;
  tagTypes(): Promise<TagType[]>;
  environments(): Promise<Environment[]>;
  apiTokens(): Promise<ApiToken[]>;
  segments(): Promise<Segment[]>;
  /** Change events with from <= createdAt < to, oldest first. */
  eventsBetween(from: Date, to: Date): Promise<ChangeEvent[]>;
}
