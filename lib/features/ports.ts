import type { HourlyCount } from '../client/store.js';
import type { ContextField } from '../context-fields/model.js';
import type { Environment } from '../environments/model.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';

/**
 * What the feature services need to know about the rest of the catalogue. The composition
 * root builds it (lib/composition/catalogs.ts) from the project, segment, context-field,
 * tag-type and strategy-type services.
 */
export interface FeatureCatalog {
  /** The project, or NotFound. */
  project(id: string): Promise<Project>;
  /** The project's environments, in sort order. */
  environmentsOf(project: Project): Promise<Environment[]>;
  allEnvironments(): Promise<Environment[]>;
  strategyTypeExists(name: string): Promise<boolean>;
  segment(id: number): Promise<Segment | undefined>;
  contextField(name: string): Promise<ContextField | undefined>;
  tagTypeExists(name: string): Promise<boolean>;
  /** Active features of every project, counted without reading them. */
  activeFeatureCount(): Promise<number>;
}

/** When SDKs last reported each environment of a feature (ISO times by environment name). */
export interface LastSeenReader {
  forFeature(name: string): Promise<Record<string, string>>;
  forAll(): Promise<Map<string, Record<string, string>>>;
}

/** SDK usage counters (ADR 15) of one feature, by hour (`yyyy-mm-ddThh`, UTC). */
export interface UsageReader {
  hourlyCountsOf(feature: string, hours: readonly string[]): Promise<HourlyCount[]>;
}
