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
}
