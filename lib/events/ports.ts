import type { EventReader } from './store.js';

/**
 * What the event log reads: the change events every store records in the table, through the
 * process's one reader (each month's settled events and the counters' answer kept once, for the
 * event log and every other reader by time alike).
 */
export interface EventPorts {
  events: EventReader;
}
