import { integrationSlice } from '../../integrations/slice.js';
import type { Composition } from '../composition.js';
import { secretBox } from '../session-edge.js';

/** Integrations' slice: their sensitive parameters sealed by the one secret box. */
export const integrations = (c: Composition) => integrationSlice(c, { sealer: c.once(secretBox) });
