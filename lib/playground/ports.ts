import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';

/** What the playground reads of other resources. */
export interface PlaygroundPorts {
  /** One project's flags, archived ones too, from its own partition. */
  projectFeatures(projectId: string): Promise<Feature[]>;
  /** Every flag, archived ones too, from the admin read model rather than a read of every flag per request. */
  everyFeature(): Promise<readonly Feature[]>;
  /** Active flags of every project, from the projects' counts (no flag read). */
  activeFeatureCount(): Promise<number>;
  segments(): Promise<Segment[]>;
}
