import { DynamoStoredSnapshotStore } from '../client/dynamo-stored-snapshot.js';
import { FeatureSnapshots } from '../client/feature-snapshots.js';
import type { Composition } from './composition.js';
import { revisionClock } from './edge.js';
import { featureReads, segmentStore } from './stores.js';

/**
 * The process's one snapshot of every feature and segment: the SDK and Frontend APIs build their
 * payloads from it, the admin read model reads it, and the scheduled writer stores it (ADR 20).
 */
export const featureSnapshots = (c: Composition) => new FeatureSnapshots(
  c.once(featureReads), c.once(segmentStore), c.once(revisionClock), c.store.revisions, new DynamoStoredSnapshotStore(c.store.db, c.store.tableName),
);
