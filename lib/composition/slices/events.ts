import { eventSlice } from '../../events/slice.js';
import type { Composition } from '../composition.js';
import { eventStore } from '../stores.js';

/**
 * The event log's slice, once per composition, on the process's one event reader: the project
 * pages, insights and the dashboard read the same kept months (ADR 26).
 */
export const events = (c: Composition) => eventSlice(c, { events: c.once(eventStore) });
