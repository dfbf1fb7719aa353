import type { HourlyCount } from '../client/store.js';
import type { ContextField } from '../context-fields/model.js';
import type { Environment } from '../environments/model.js';
import type { Caller } from '../http/caller.js';
import type { Project } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { FeatureCreator } from './model.js';
import type { ProjectFeatures } from './relation-service.js';
import type { EveryFeature, SearchReadModel } from './search-service.js';

/**
 * What the feature services need to know about the rest of the catalogue. Its binding builds it
 * (lib/composition/slices/features.ts) from the project, environment, segment, context-field
 * and tag-type adapters, and the strategy types' service.
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
  /**
   * The times of these features in these environments only, read by key (a page's worth in one
   * request); a feature never seen has no entry.
   */
  forFeatures(names: readonly string[], environments: readonly string[]): Promise<Map<string, Record<string, string>>>;
}

/** SDK usage counters (ADR 15) of one feature, by hour (`yyyy-mm-ddThh`, UTC). */
export interface UsageReader {
  hourlyCountsOf(feature: string, hours: readonly string[]): Promise<HourlyCount[]>;
}

/** The person behind a request, as flags record and show them (lib/users, lib/favourites). */
export interface FeaturePeople {
  /** Who a new flag records as its creator: the user, or Unleash's admin-token user for an API token. */
  creatorOf(caller: Caller): Promise<FeatureCreator>;
  /** The flags the caller starred; none for an API token. */
  favouriteFeaturesOf(caller: Caller): Promise<ReadonlySet<string>>;
}

/**
 * Moves a flag's lifecycle forward from the SDK metrics of one environment (rules/lifecycle.ts
 * `stagesFromMetrics`): a conditional write on the stored flag, no change event and no new
 * revision, as Unleash records these stages without an event and SDKs never see them.
 */
export interface MetricsStageRecorder {
  /** `unknown` when no such flag exists; else the stages it is in from metrics afterwards. */
  recordFromMetrics(feature: string, environment: { name: string; type: string }, at: string): Promise<'unknown' | { stages: string[] }>;
}

/** What the feature slice reads of other resources. */
export interface FeaturePorts {
  catalog: FeatureCatalog;
  /** Last-seen times for the views and search, the hourly counters for a feature's usage. */
  metrics: LastSeenReader & UsageReader;
  /** Every feature, archived ones too, as the admin read model holds them: the unfiltered search reads it. */
  everyFeature: EveryFeature;
  /** The same read model with its segments, and whether this process holds it yet: what the search filters. */
  searchReadModel: SearchReadModel;
  people: FeaturePeople;
  /** One project's features (its dependency options and whether any depends on another). */
  projectFeatures: ProjectFeatures;
}
