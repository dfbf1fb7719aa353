import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';

/** What the playground reads of other resources. */
export interface PlaygroundPorts {
  /**
   * Some projects' flags, archived ones too, and perhaps other projects' with them (the caller
   * filters): from the admin read model once the process holds it (a revision check, where the
   * projects' partitions are a Query of every flag), as the feature search reads them.
   */
  projectsFeatures(projectIds: readonly string[]): Promise<readonly Feature[]>;
  /** Every flag, archived ones too, from the admin read model rather than a read of every flag per request. */
  everyFeature(): Promise<readonly Feature[]>;
  /** Active flags of every project, from the projects' counts (no flag read). */
  activeFeatureCount(): Promise<number>;
  segments(): Promise<Segment[]>;
}
