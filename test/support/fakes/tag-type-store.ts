import type { TagType } from '../../../lib/tag-types/model.js';
import type { TagTypeStore } from '../../../lib/tag-types/store.js';
import { FakeNamedItems } from './named-items.js';

/** TagTypeStore in memory; test/support/contracts/tag-type-store.ts keeps it honest. */
export class FakeTagTypeStore extends FakeNamedItems<TagType> implements TagTypeStore {}
