import { personalTokenSlice } from '../../personal-access-tokens/slice.js';
import type { Composition } from '../composition.js';

/** A person's own personal access tokens' slice, once per composition; it reads nothing of other resources. */
export const personalTokens = (c: Composition) => personalTokenSlice(c);
