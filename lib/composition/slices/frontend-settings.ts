import { frontendSettingsSlice } from '../../frontend/settings-slice.js';
import type { Composition } from '../composition.js';
import { frontendOrigins } from '../edge.js';

/** The Frontend API's settings, once per composition, on the origins the process's CORS answers read. */
export const frontendSettings = (c: Composition) => frontendSettingsSlice(c, { origins: c.once(frontendOrigins) });
