import type { FeatureSnapshots } from './feature-snapshots.js';
import type { MetricsQueue } from './metrics-stages.js';
import type { RevisionClock } from './revision-clock.js';

/** What the SDK API reads of other resources and of the process it runs in. */
export interface ClientPorts {
  /**
   * Every feature and segment at a revision, followed through the change log: the process's one
   * copy, shared with the admin read model where both are served.
   */
  snapshots: Pick<FeatureSnapshots, 'at' | 'store' | 'storedScope'>;
  /** The revision as this process last read it: the clock the token check reads too. */
  revision: Pick<RevisionClock, 'current'>;
  /** Where SDK usage reports wait to be summed (ADR 15). */
  usageQueue: MetricsQueue;
}
