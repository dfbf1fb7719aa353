import type { Segment } from './model.js';

/**
 * The segment store port. The feature store keeps a `refCount` on each segment item in the
 * same transaction as the strategies that use it; deleting a segment is conditional on that
 * count being zero, so a segment in use can never be deleted.
 */
export interface SegmentStore {
  list(): Promise<Segment[]>;
  get(id: number): Promise<Segment | undefined>;
}
