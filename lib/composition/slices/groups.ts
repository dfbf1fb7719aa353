import { groupSlice } from '../../groups/slice.js';
import type { Composition } from '../composition.js';
import { groupStore, userStore } from '../session-edge.js';

/** The groups' slice, once per composition, on the session edge's group store; members' users read from the user store. */
export const groups = (c: Composition) => groupSlice(c, { store: c.once(groupStore), users: c.once(userStore) });
