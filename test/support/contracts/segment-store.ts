import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../lib/segments/model.js';
import type { EditableSegmentStore } from '../../../lib/segments/store.js';
import type { MakeStore } from './named-items.js';

/**
 * The store under test and the one thing done to segments from outside its port: the feature
 * store moving a segment's count of strategies that use it (by `by`, one unless told).
 */
export interface SegmentStoreUnderTest {
  store: EditableSegmentStore;
  putInUse(id: number, by?: number): Promise<void>;
}

const segment = (id: number, name: string): Segment => ({
  id,
  name,
  description: null,
  project: null,
  constraints: [{ contextName: 'tenant', operator: 'IN', values: ['acme', 'globex'], caseInsensitive: false, inverted: false }],
  createdAt: '2026-01-02T03:04:05.000Z',
  createdBy: 'admin@example.com',
});

/** What every EditableSegmentStore answers: the fake and the DynamoDB adapter run these cases. */
export function segmentStoreContract(makeStore: MakeStore<SegmentStoreUnderTest>): void {
  describe('the EditableSegmentStore contract', () => {
    it('starts empty: no segments, no names taken', async () => {
      const { store } = await makeStore();

      expect(await store.list()).toEqual([]);
      expect(await store.get(1)).toBeUndefined();
      expect(await store.nameTaken('beta users')).toBe(false);
    });

    it('hands out increasing ids, never one twice', async () => {
      const { store } = await makeStore();

      const ids = [await store.nextId(), await store.nextId(), await store.nextId()];

      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
      expect(ids[1]).toBeGreaterThan(ids[0]!);
      expect(ids[2]).toBeGreaterThan(ids[1]!);
    });

    it('inserts a segment, reads it back as written and takes its name', async () => {
      const { store } = await makeStore();

      expect(await store.insert(segment(7, 'beta users'))).toBe('done');

      expect(await store.get(7)).toEqual(segment(7, 'beta users'));
      expect(await store.list()).toEqual([segment(7, 'beta users')]);
      expect(await store.nameTaken('beta users')).toBe(true);
      expect(await store.nameTaken('Beta users')).toBe(false);
    });

    it('answers \'name-taken\' to an insert of a taken name, and writes nothing', async () => {
      const { store } = await makeStore();
      await store.insert(segment(1, 'beta users'));

      expect(await store.insert(segment(2, 'beta users'))).toBe('name-taken');

      expect(await store.get(2)).toBeUndefined();
      expect(await store.list()).toEqual([segment(1, 'beta users')]);
    });

    it('lists segments by id, numerically', async () => {
      const { store } = await makeStore();
      for (const id of [10, 2, 1_000_000, 9]) await store.insert(segment(id, `segment ${id}`));

      expect((await store.list()).map((listed) => listed.id)).toEqual([2, 9, 10, 1_000_000]);
    });

    it('replaces a segment\'s details and keeps its id, createdAt and createdBy', async () => {
      const { store } = await makeStore();
      const before = segment(1, 'beta users');
      await store.insert(before);
      const after: Segment = {
        ...before, description: 'Who tries things first', project: 'shop', constraints: [], createdAt: 'later', createdBy: 'someone else',
      };

      expect(await store.replace(before, after)).toBe('done');

      expect(await store.get(1)).toEqual({ ...before, description: 'Who tries things first', project: 'shop', constraints: [] });
    });

    it('moves the name on a rename: the new one is taken, the old one free for another segment', async () => {
      const { store } = await makeStore();
      const before = segment(1, 'beta users');
      await store.insert(before);

      expect(await store.replace(before, { ...before, name: 'early adopters' })).toBe('done');

      expect((await store.get(1))?.name).toBe('early adopters');
      expect(await store.nameTaken('early adopters')).toBe(true);
      expect(await store.nameTaken('beta users')).toBe(false);
      expect(await store.insert(segment(2, 'beta users'))).toBe('done');
    });

    it('answers \'name-taken\' to a rename to another segment\'s name, and changes nothing', async () => {
      const { store } = await makeStore();
      const before = segment(1, 'beta users');
      await store.insert(before);
      await store.insert(segment(2, 'early adopters'));

      expect(await store.replace(before, { ...before, name: 'early adopters', description: 'changed' })).toBe('name-taken');

      expect(await store.get(1)).toEqual(before);
      expect(await store.nameTaken('beta users')).toBe(true);
    });

    it('answers \'changed\' to a replace of a segment renamed since it was read, and keeps the rename', async () => {
      const { store } = await makeStore();
      const read = segment(1, 'beta users');
      await store.insert(read);
      await store.replace(read, { ...read, name: 'early adopters' });

      expect(await store.replace(read, { ...read, description: 'stale' })).toBe('changed');

      expect(await store.get(1)).toEqual({ ...read, name: 'early adopters' });
    });

    it('answers \'missing\' to a replace of a segment that does not exist, and creates none', async () => {
      const { store } = await makeStore();
      const absent = segment(1, 'beta users');

      expect(await store.replace(absent, { ...absent, description: 'changed' })).toBe('missing');

      expect(await store.list()).toEqual([]);
      expect(await store.nameTaken('beta users')).toBe(false);
    });

    it('deletes a segment no strategy uses and frees its name', async () => {
      const { store } = await makeStore();
      await store.insert(segment(1, 'beta users'));

      expect(await store.delete(segment(1, 'beta users'))).toBe('done');

      expect(await store.get(1)).toBeUndefined();
      expect(await store.nameTaken('beta users')).toBe(false);
    });

    it('answers \'in-use\' to a delete of a segment strategies use, and keeps it', async () => {
      const { store, putInUse } = await makeStore();
      await store.insert(segment(1, 'beta users'));
      await putInUse(1);

      expect(await store.delete(segment(1, 'beta users'))).toBe('in-use');

      expect(await store.get(1)).toEqual(segment(1, 'beta users'));
      expect(await store.nameTaken('beta users')).toBe(true);
    });

    it('deletes a segment once the strategies that used it dropped it', async () => {
      const { store, putInUse } = await makeStore();
      await store.insert(segment(1, 'beta users'));
      await putInUse(1, 2);
      await putInUse(1, -2);

      expect(await store.delete(segment(1, 'beta users'))).toBe('done');
    });

    it('answers \'changed\' to a delete of a segment renamed since it was read, and keeps it', async () => {
      const { store } = await makeStore();
      const read = segment(1, 'beta users');
      await store.insert(read);
      await store.replace(read, { ...read, name: 'early adopters' });

      expect(await store.delete(read)).toBe('changed');

      expect((await store.get(1))?.name).toBe('early adopters');
    });

    it('answers \'missing\' to a delete of a segment that does not exist', async () => {
      const { store } = await makeStore();

      expect(await store.delete(segment(1, 'beta users'))).toBe('missing');
    });
  });
}
