import type { DailySnapshot } from './snapshot.js';

/** Daily snapshots, one per date: taking one again on the same day replaces it. */
export interface SnapshotStore {
  save(snapshot: DailySnapshot): Promise<void>;
  /** All snapshots, oldest first. */
  list(): Promise<DailySnapshot[]>;
}
