import { tagTypeSlice } from '../../tag-types/slice.js';
import type { Composition } from '../composition.js';

/** The tag types' slice, once per composition; it reads nothing of other resources. */
export const tagTypes = (c: Composition) => tagTypeSlice(c, {});
