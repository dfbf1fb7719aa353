import { maintenanceSlice } from '../../maintenance/slice.js';
import type { Composition } from '../composition.js';
import { maintenance } from '../session-edge.js';

/** Maintenance mode's slice, once per composition, on the admin edge's own flag: a toggle here holds on this container at once. */
export const maintenanceMode = (c: Composition) => maintenanceSlice(c, { maintenance: c.once(maintenance) });
