import type { Feature } from '../features/model.js';
import type { EnteredStage } from './model.js';

/** An SDK application's registration as the status pages read it. */
export interface RegisteredApplication {
  appName: string;
  sdkVersion: string | null;
  /** The registering token's projects; `*` for every project. */
  projects: readonly string[];
}

/** What a project's status pages read of other resources. */
export interface ProjectStatusPorts {
  /** Resolves for a project that exists; NotFound in the projects' words otherwise. */
  ensureProject(projectId: string): Promise<void>;
  /** The project's flags, archived ones too, as of every change acknowledged before the call. */
  projectFeatures(projectId: string): Promise<readonly Feature[]>;
  /**
   * The same from the project's own partition, with the lifecycle stages SDK metrics wrote: those
   * move no revision, so a read model kept by revision shows them only from the next change.
   */
  projectFeaturesWithMetricsStages(projectId: string): Promise<readonly Feature[]>;
  /** The stages a flag entered (lib/features records them with the changes that define them). */
  stagesOf(feature: Feature): readonly EnteredStage[];
  /** The project's change events within [from, to) per UTC day, one per action as Unleash's event log lists them, oldest day first. */
  projectActivityByDate(projectId: string, from: Date, to: Date): Promise<Array<{ date: string; count: number }>>;
  /** API tokens scoped to the project by name (a `*` token belongs to no one project, as in Unleash). */
  projectApiTokenCount(projectId: string): Promise<number>;
  /** Segments that belong to the project. */
  projectSegmentCount(projectId: string): Promise<number>;
  /** Every live SDK registration. */
  registeredApplications(): Promise<RegisteredApplication[]>;
}
