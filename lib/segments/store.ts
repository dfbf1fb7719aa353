import type { Segment } from './model.js';

export type SegmentWriteOutcome = 'done' | 'name-taken' | 'missing' | 'changed';
export type SegmentDeleteOutcome = 'done' | 'missing' | 'in-use' | 'changed';

/** Reading segments: all the SDK payload and the feature services need. */
export interface SegmentStore {
  list(): Promise<Segment[]>;
  get(id: number): Promise<Segment | undefined>;
}

/**
 * The whole segment store port, for the segment service. The feature store keeps a
 * `refCount` on each segment item in the same transaction as the strategies that use it;
 * deleting a segment is conditional on that count being zero, so a segment in use can never
 * be deleted. Every write here also bumps the SDK revision, since SDKs receive segments.
 */
export interface EditableSegmentStore extends SegmentStore {
  /** A new id, never handed out before (ids of failed creates are skipped, not reused). */
  nextId(): Promise<number>;
  /** Whether a segment has the name (its name guard exists). */
  nameTaken(name: string): Promise<boolean>;
  /** Answers 'name-taken' when another segment has the name. */
  insert(segment: Segment): Promise<'done' | 'name-taken'>;
  /** Replaces `before` (as read) with `after`; 'changed' when it was renamed meanwhile. */
  replace(before: Segment, after: Segment): Promise<SegmentWriteOutcome>;
  /** Deletes `segment` (as read) unless a strategy uses it. */
  delete(segment: Segment): Promise<SegmentDeleteOutcome>;
}
