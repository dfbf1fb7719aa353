import { describe } from 'vitest';
import type { TagType } from '../../../lib/tag-types/model.js';
import type { TagTypeStore } from '../../../lib/tag-types/store.js';
import { namedItemEditCases, namedItemReadCases, type MakeStore } from './named-items.js';

const tagType = (name: string): TagType => ({ name, description: 'Who owns the feature', icon: null });

/** What every TagTypeStore answers: the fake and the DynamoDB adapter run these cases. */
export function tagTypeStoreContract(makeStore: MakeStore<TagTypeStore>): void {
  describe('the TagTypeStore contract', () => {
    namedItemReadCases(makeStore, tagType);
    namedItemEditCases(makeStore, tagType, (type) => ({ ...type, description: null, icon: 'label' }));
  });
}
