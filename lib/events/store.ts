import type { ChangeEvent } from './model.js';

/** Reads change events; they are written by the stores, inside the transactions of the changes. */
export interface EventReader {
  /** Events with from <= createdAt < to, oldest first. */
  between(from: Date, to: Date): Promise<ChangeEvent[]>;
  /**
   * One feature's events with from <= createdAt < to, oldest first: a Query of the feature's own
   * partition of the `eventsByFeature` index, whatever else happened in that time. The index is
   * eventually consistent, so an event can show here a moment after its change answered.
   */
  ofFeature(featureName: string, from: Date, to: Date): Promise<ChangeEvent[]>;
  /**
   * Events with from <= createdAt < to, newest first (of one time, the larger id first, as the
   * sort keys order them), a page at a time: a caller that wants the newest few stops iterating
   * and nothing older is read.
   */
  newestFirst(from: Date, to: Date): AsyncIterable<ChangeEvent[]>;
}
