import { describe, expect, it } from 'vitest';
import { CUSTOM_SORT_ORDER, type StrategyType } from '../../../lib/strategies/model.js';
import type { StrategyTypeStore } from '../../../lib/strategies/store.js';
import type { MakeStore } from './named-items.js';

const custom = (name: string): StrategyType => ({
  name,
  title: null,
  displayName: null,
  description: 'On for the listed tenants',
  editable: true,
  deprecated: false,
  parameters: [{ name: 'tenants', type: 'list', description: '', required: true }],
  sortOrder: CUSTOM_SORT_ORDER,
});

/**
 * What every StrategyTypeStore answers: the fake and the DynamoDB adapter run these cases. The
 * usage mark is moved by the feature store, outside this port: here a type's mark is always the
 * one it was inserted with (0, as nothing used it), so a delete with another mark shows 'changed'.
 */
export function strategyTypeStoreContract(makeStore: MakeStore<StrategyTypeStore>): void {
  describe('the StrategyTypeStore contract', () => {
    it('starts empty: the list is empty and a get answers undefined', async () => {
      const store = await makeStore();

      expect(await store.list()).toEqual([]);
      expect(await store.get('tenants')).toBeUndefined();
    });

    it('answers true to an insert of a new name and reads the type back as custom, never used', async () => {
      const store = await makeStore();

      expect(await store.insert(custom('tenants'))).toBe(true);

      const expected = { kind: 'custom', type: custom('tenants'), usageMark: 0 };
      expect(await store.get('tenants')).toEqual(expected);
      expect(await store.list()).toEqual([expected]);
    });

    it('answers false to an insert of a taken name and keeps the type written first', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));

      expect(await store.insert({ ...custom('tenants'), description: 'another' })).toBe(false);

      expect(await store.get('tenants')).toMatchObject({ kind: 'custom', type: custom('tenants') });
    });

    it('answers false to an insert of the name of a built-in overlay, which stays an overlay', async () => {
      const store = await makeStore();
      await store.setDeprecated('default', true, true);

      expect(await store.insert(custom('default'))).toBe(false);

      expect(await store.get('default')).toEqual({ kind: 'built-in-overlay', name: 'default', deprecated: true });
    });

    it('lists custom types and overlays together by name in byte order', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));
      await store.setDeprecated('userWithId', false, true);
      await store.insert(custom('Regions'));
      await store.insert(custom('beta'));

      const listed = await store.list();

      expect(listed.map((item) => (item.kind === 'custom' ? item.type.name : item.name))).toEqual(['Regions', 'beta', 'tenants', 'userWithId']);
      expect(listed[3]).toEqual({ kind: 'built-in-overlay', name: 'userWithId', deprecated: false });
    });

    it('answers true to a replace of a custom type and reads the new details, with its mark', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));
      const edited: StrategyType = {
        ...custom('tenants'),
        title: 'Tenants',
        description: null,
        parameters: [{ name: 'tenantIds', type: 'string', description: 'Comma separated', required: false }],
      };

      expect(await store.replace(edited)).toBe(true);

      expect(await store.get('tenants')).toEqual({ kind: 'custom', type: edited, usageMark: 0 });
    });

    it('answers false to a replace of a missing type and creates nothing', async () => {
      const store = await makeStore();

      expect(await store.replace(custom('tenants'))).toBe(false);

      expect(await store.get('tenants')).toBeUndefined();
    });

    it('answers false to a replace of a built-in overlay and leaves the overlay', async () => {
      const store = await makeStore();
      await store.setDeprecated('default', true, true);

      expect(await store.replace(custom('default'))).toBe(false);

      expect(await store.get('default')).toEqual({ kind: 'built-in-overlay', name: 'default', deprecated: true });
    });

    it('sets and clears a custom type\'s deprecation, keeping its other details', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));

      expect(await store.setDeprecated('tenants', true, false)).toBe(true);
      expect(await store.get('tenants')).toEqual({ kind: 'custom', type: { ...custom('tenants'), deprecated: true }, usageMark: 0 });

      expect(await store.setDeprecated('tenants', false, false)).toBe(true);
      expect(await store.get('tenants')).toEqual({ kind: 'custom', type: custom('tenants'), usageMark: 0 });
    });

    it('answers false to deprecating a missing custom type and creates nothing', async () => {
      const store = await makeStore();

      expect(await store.setDeprecated('tenants', true, false)).toBe(false);

      expect(await store.get('tenants')).toBeUndefined();
      expect(await store.list()).toEqual([]);
    });

    it('writes a built-in type\'s overlay on its first deprecation, and changes it after', async () => {
      const store = await makeStore();

      expect(await store.setDeprecated('flexibleRollout', true, true)).toBe(true);
      expect(await store.get('flexibleRollout')).toEqual({ kind: 'built-in-overlay', name: 'flexibleRollout', deprecated: true });

      expect(await store.setDeprecated('flexibleRollout', false, true)).toBe(true);
      expect(await store.get('flexibleRollout')).toEqual({ kind: 'built-in-overlay', name: 'flexibleRollout', deprecated: false });
      expect(await store.list()).toHaveLength(1);
    });

    it('deletes a custom type nobody used with mark 0; it is then gone and its name free', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));

      expect(await store.delete('tenants', 0)).toBe('done');

      expect(await store.get('tenants')).toBeUndefined();
      expect(await store.list()).toEqual([]);
      expect(await store.insert(custom('tenants'))).toBe(true);
    });

    it('answers \'changed\' to a delete with a mark other than the type\'s, and keeps the type', async () => {
      const store = await makeStore();
      await store.insert(custom('tenants'));

      expect(await store.delete('tenants', 3)).toBe('changed');

      expect(await store.get('tenants')).toEqual({ kind: 'custom', type: custom('tenants'), usageMark: 0 });
    });

    it('answers \'missing\' to a delete of a missing type', async () => {
      const store = await makeStore();

      expect(await store.delete('tenants', 0)).toBe('missing');
      expect(await store.delete('tenants', 2)).toBe('missing');
    });

    it('answers \'missing\' to a delete of a built-in overlay, and keeps the overlay', async () => {
      const store = await makeStore();
      await store.setDeprecated('default', true, true);

      expect(await store.delete('default', 0)).toBe('missing');

      expect(await store.get('default')).toEqual({ kind: 'built-in-overlay', name: 'default', deprecated: true });
    });

    it('answers copies: changing what was read or written changes nothing stored', async () => {
      const store = await makeStore();
      const written = custom('tenants');
      await store.insert(written);

      written.parameters.push({ name: 'more', type: 'string', description: '', required: false });
      const read = await store.get('tenants');
      if (read?.kind === 'custom') read.type.description = 'changed';

      expect(await store.get('tenants')).toEqual({ kind: 'custom', type: custom('tenants'), usageMark: 0 });
    });
  });
}
