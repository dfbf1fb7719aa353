import { eventSlice } from '../../events/slice.js';
import type { Composition } from '../composition.js';

/** The event log's slice, once per composition; it reads nothing of other resources. */
export const events = (c: Composition) => eventSlice(c, {});
