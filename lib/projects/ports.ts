import type { Feature } from '../features/model.js';
import type { LastSeenReader } from '../features/ports.js';
import type { Caller } from '../http/caller.js';
import type * as z from 'zod';
import type { projectStatsSchema } from './schemas.js';

/** A project's activity figures, as its overview and summary answer them. */
export type ProjectStatsWire = z.infer<typeof projectStatsSchema>;

/** The features projects read. */
export interface ProjectFeatureReads {
  /** Every feature, archived ones too (each project's health in the list). */
  everyFeature(): Promise<readonly Feature[]>;
  /** One project's features, archived ones too, as of every change acknowledged before the call (its overview, and its delete, refused while any is left). */
  projectFeatures(projectId: string): Promise<readonly Feature[]>;
  /**
   * The same from the project's own partition, with the lifecycle stages SDK metrics wrote: those
   * move no revision, so a read model kept by revision shows them only from the next change.
   */
  projectFeaturesWithMetricsStages(projectId: string): Promise<readonly Feature[]>;
}

/** What projects read of other resources. */
export interface ProjectPorts {
  features: ProjectFeatureReads;
  /** Whether a built-in or custom strategy type has the name (a project's default strategy names one). */
  strategyTypeExists(name: string): Promise<boolean>;
  /** When SDKs last reported a feature (the project page's onboarding status). */
  lastSeen: LastSeenReader;
  /** When SDKs last reported each of these features, by feature name (the overview's rows). */
  lastSeenOf(features: readonly Feature[]): Promise<Map<string, Record<string, string>>>;
  /**
   * The project's statistics over the last two 30-day windows (overview and summary), from its
   * features (archived ones too) as the caller reads them: the events are read meanwhile.
   */
  projectStats(projectId: string, features: Promise<readonly Feature[]>): Promise<ProjectStatsWire>;
  /** The projects the caller starred (lib/favourites); none for an API token. */
  favouriteProjectsOf(caller: Caller): Promise<ReadonlySet<string>>;
}
