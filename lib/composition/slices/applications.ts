import { applicationSlice } from '../../applications/slice.js';
import type { Composition } from '../composition.js';
import { clientApplicationStore } from '../stores.js';

/** The applications' slice, once per composition, on the SDK registrations' adapter. */
export const applications = (c: Composition) => applicationSlice(c, { registrations: c.once(clientApplicationStore) });
