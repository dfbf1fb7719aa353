import type { ChangeEvent } from './model.js';

/** Reads change events; they are written by the stores, inside the transactions of the changes. */
export interface EventReader {
  /** Events with from <= createdAt < to, oldest first. */
  between(from: Date, to: Date): Promise<ChangeEvent[]>;
}
