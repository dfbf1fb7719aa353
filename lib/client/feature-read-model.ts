import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';
import type { FeatureSnapshots } from './feature-snapshots.js';
import type { RevisionClock } from './revision-clock.js';

/**
 * The admin read model of every feature, archived ones too: what the unfiltered search, the
 * usage lists of context fields, segments and tag types, the playground, the state export and
 * insights read instead of walking the table each.
 *
 * Consistency: as of a revision read made by the call itself, so it holds every write
 * acknowledged before the call, from any process (an admin UI that creates a feature and lists
 * again on another container sees it). Never the SDK path's once-per-interval revision.
 *
 * Cost: one strongly consistent Query of the revision shards per call; when the revision moved
 * since this process's last reading, one change-log Query per moved shard and one BatchGetItem of
 * the features named (their segments again only when a segment changed). A process's first call
 * reads the stored SDK snapshot (ADR 20), or every feature when there is none. The snapshot is
 * this process's one copy (FeatureSnapshots), shared with the SDK payloads where both are served.
 *
 * The features are shared: callers must not change them.
 */
export class FeatureReadModel {
  private answered = false;

  constructor(
    private readonly snapshots: Pick<FeatureSnapshots, 'at'>,
    private readonly clock: Pick<RevisionClock, 'fresh'>,
  ) {}

  async everyFeature(): Promise<readonly Feature[]> {
    return (await this.everything()).features;
  }

  /**
   * Whether this read model answered in this process before: reading it again costs the revision
   * check and what changed since, not the cold start from the stored snapshot.
   */
  isWarm(): boolean {
    return this.answered;
  }

  /** Every feature and every segment, as of the same revision read (the feature search names segments from it). */
  async everything(): Promise<{ features: readonly Feature[]; segmentsById: ReadonlyMap<number, Segment> }> {
    const { revision } = await this.clock.fresh();
    const { features, segmentsById } = await this.snapshots.at(revision);
    this.answered = true;
    return { features, segmentsById };
  }
}
