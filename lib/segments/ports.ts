import type { Feature } from '../features/model.js';
import type { EveryFeature } from '../features/search-service.js';

/** What segments read of other resources. */
export interface SegmentPorts {
  /** Whether a project has the id (a segment scoped to a project names one that exists). */
  projectExists(id: string): Promise<boolean>;
  /** Every feature, archived ones too, read from the table: a re-scoped segment's check. */
  allFeatures(): Promise<Feature[]>;
  /** Every feature as the admin read model holds them: the admin UI's segment list with its usage counts, and the strategies using a segment. */
  everyFeature: EveryFeature;
}
