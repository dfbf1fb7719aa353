import type { TagType } from './model.js';

/** The tag type of a fresh install; a tag sent without a type is of this type. */
export const DEFAULT_TAG_TYPES: readonly TagType[] = [
  { name: 'simple', description: 'Used to simplify filtering of features', icon: '#' },
];
