import { signupTokenSlice } from '../../signup-tokens/slice.js';
import type { Composition } from '../composition.js';
import { users } from './users.js';

/** The signup tokens' slice, once per composition; a signup creates its user through the users' service (its rules and id counter). */
export const signupTokens = (c: Composition) => signupTokenSlice(c, { users: c.once(users).users });
