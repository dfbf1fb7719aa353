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

/** Events read by time, each with whether its transaction counted it (ADR 26). */
export interface CountedEvents {
  events: ChangeEvent[];
  /** `counted[i]`: whether `events[i]` was counted. */
  counted: boolean[];
}

/** What a month's counters say (ADR 26). */
export interface WrittenEventCount {
  /** How many of the month's events committed with a count: the sum of its shards. */
  written: number;
  /** When the month's first counted event was created (epoch ms), if any was. */
  countingSince: number | undefined;
}

/** An EventReader that also reads the events' counters: a reader holding every counted event of a month knows it without reading the month. */
export interface CountedEventReader extends EventReader {
  /** `between`, with which events were counted; `consistent` reads them strongly consistently. */
  betweenCounted(from: Date, to: Date, consistent?: boolean): Promise<CountedEvents>;
  /** The counters of a month (`yyyy-mm`), strongly consistent: one Query. */
  writtenCount(month: string): Promise<WrittenEventCount>;
}
