import { describe, expect, it } from 'vitest';
import type { TagStore } from '../../../lib/tag-types/store.js';
import type { MakeStore } from './named-items.js';

/** What every TagStore answers: the fake and the DynamoDB adapter run these cases. */
export function tagStoreContract(makeStore: MakeStore<TagStore>): void {
  describe('the TagStore contract', () => {
    it('starts empty, for every type and for one', async () => {
      const store = await makeStore();

      expect(await store.list()).toEqual([]);
      expect(await store.list('team')).toEqual([]);
    });

    it('answers true to an insert of a new tag and lists it', async () => {
      const store = await makeStore();

      expect(await store.insert({ type: 'team', value: 'checkout' })).toBe(true);

      expect(await store.list()).toEqual([{ type: 'team', value: 'checkout' }]);
    });

    it('answers false to an insert of a tag that exists and lists it once', async () => {
      const store = await makeStore();
      await store.insert({ type: 'team', value: 'checkout' });

      expect(await store.insert({ type: 'team', value: 'checkout' })).toBe(false);

      expect(await store.list()).toEqual([{ type: 'team', value: 'checkout' }]);
    });

    it('holds one value under two types as two tags', async () => {
      const store = await makeStore();

      expect(await store.insert({ type: 'team', value: 'checkout' })).toBe(true);
      expect(await store.insert({ type: 'area', value: 'checkout' })).toBe(true);

      expect(await store.list()).toHaveLength(2);
    });

    it('lists tags by type, then value, in byte order', async () => {
      const store = await makeStore();
      const inserted = [
        { type: 'team', value: 'search' },
        { type: 'area', value: 'web' },
        { type: 'team', value: 'Billing' },
        { type: 'team', value: 'checkout' },
        { type: 'area', value: 'api' },
      ];
      for (const tag of inserted) await store.insert(tag);

      expect(await store.list()).toEqual([
        { type: 'area', value: 'api' },
        { type: 'area', value: 'web' },
        { type: 'team', value: 'Billing' },
        { type: 'team', value: 'checkout' },
        { type: 'team', value: 'search' },
      ]);
    });

    it('lists one type alone, not the types its name is the start of', async () => {
      const store = await makeStore();
      await store.insert({ type: 'team', value: 'checkout' });
      await store.insert({ type: 'teams', value: 'all' });
      await store.insert({ type: 'area', value: 'web' });

      expect(await store.list('team')).toEqual([{ type: 'team', value: 'checkout' }]);
      expect(await store.list('teams')).toEqual([{ type: 'teams', value: 'all' }]);
      expect(await store.list('owner')).toEqual([]);
    });
  });
}
