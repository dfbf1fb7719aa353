import { instanceSlice } from '../../instance/slice.js';
import type { Composition } from '../composition.js';
import { frontendOrigins } from '../edge.js';
import { loginMethods, maintenance } from '../session-edge.js';

/** The instance's slice, once per composition: the login methods, the Frontend API's origins and the maintenance flag the admin edge already holds. */
export const instance = (c: Composition) => instanceSlice(c, {
  logins: c.once(loginMethods), frontendOrigins: c.once(frontendOrigins), maintenance: c.once(maintenance),
});
