import { describe, expect, it } from 'vitest';
import { Conflict, NotFound, ValidationFailed } from '../../../lib/errors.js';
import { BUILT_IN_STRATEGY_TYPES, CUSTOM_SORT_ORDER, type StrategyType } from '../../../lib/strategies/model.js';
import type { StrategyPorts, StrategyTypeUser } from '../../../lib/strategies/ports.js';
import { StrategyTypeService } from '../../../lib/strategies/service.js';
import { FakeStrategyTypeStore } from '../../support/fakes/strategy-type-store.js';

/** The service on a fake store; `using` answers which features use a type, per call. */
function strategyTypes(using: StrategyPorts['featuresUsing'] = async () => []) {
  const store = new FakeStrategyTypeStore();
  return { store, service: new StrategyTypeService(store, { featuresUsing: using }) };
}

const tenants = { name: 'tenants', description: 'On for the listed tenants', parameters: [{ name: 'tenantIds', type: 'list' as const }] };

const user = (name: string, archived = false): StrategyTypeUser => ({ name, project: 'default', archived });

describe('StrategyTypeService on a fake store', () => {
  describe('list and get', () => {
    it('lists the built-in types first, by sort order, then custom ones by name', async () => {
      const { service } = strategyTypes();
      await service.create({ ...tenants, name: 'zones' });
      await service.create(tenants);

      const names = (await service.list()).map((type) => type.name);

      expect(names).toEqual([...BUILT_IN_STRATEGY_TYPES.map((type) => type.name), 'tenants', 'zones']);
    });

    it('shows a built-in type\'s stored deprecation in the list and on get', async () => {
      const { service } = strategyTypes();

      await service.setDeprecated('default', true);

      expect((await service.list()).find((type) => type.name === 'default')?.deprecated).toBe(true);
      expect(await service.get('default')).toMatchObject({ name: 'default', deprecated: true, editable: false });
    });

    it('leaves out a custom type whose name became built-in: the built-in one is listed and read', async () => {
      const { service, store } = strategyTypes();
      await store.insert({ ...BUILT_IN_STRATEGY_TYPES[1]!, description: 'an old custom type', editable: true, sortOrder: CUSTOM_SORT_ORDER });

      const listed = (await service.list()).filter((type) => type.name === BUILT_IN_STRATEGY_TYPES[1]!.name);

      expect(listed).toEqual([BUILT_IN_STRATEGY_TYPES[1]]);
      expect(await service.get(BUILT_IN_STRATEGY_TYPES[1]!.name)).toEqual(BUILT_IN_STRATEGY_TYPES[1]);
    });

    it('answers NotFound for a name that is neither built-in nor stored', async () => {
      const { service } = strategyTypes();

      await expect(service.get('nothing')).rejects.toThrow(new NotFound('Could not find strategy with name nothing'));
    });
  });

  describe('create', () => {
    it('makes an editable custom type with the defaults of what the details leave out', async () => {
      const { service } = strategyTypes();

      const created = await service.create(tenants);

      const expected: StrategyType = {
        name: 'tenants', title: null, displayName: null, description: 'On for the listed tenants', editable: true, deprecated: false,
        parameters: [{ name: 'tenantIds', type: 'list', description: '', required: false }], sortOrder: CUSTOM_SORT_ORDER,
      };
      expect(created).toEqual(expected);
      expect(await service.get('tenants')).toEqual(expected);
    });

    it('refuses a taken name with Conflict and keeps the first type', async () => {
      const { service } = strategyTypes();
      await service.create(tenants);

      await expect(service.create({ ...tenants, description: 'another' })).rejects.toThrow(Conflict);

      expect((await service.get('tenants')).description).toBe('On for the listed tenants');
    });

    it('refuses a built-in name with Conflict and stores nothing', async () => {
      const { service, store } = strategyTypes();

      await expect(service.create({ ...tenants, name: 'flexibleRollout' })).rejects.toThrow(Conflict);

      expect(await store.list()).toEqual([]);
    });
  });

  describe('update', () => {
    it('replaces a custom type\'s details and keeps its deprecation', async () => {
      const { service } = strategyTypes();
      await service.create(tenants);
      await service.setDeprecated('tenants', true);

      const updated = await service.update('tenants', { title: 'Tenants', parameters: [] });

      expect(updated).toMatchObject({ name: 'tenants', title: 'Tenants', description: null, parameters: [], deprecated: true });
      expect(await service.get('tenants')).toEqual(updated);
    });

    it('refuses a body naming another type with ValidationFailed', async () => {
      const { service } = strategyTypes();
      await service.create(tenants);

      await expect(service.update('tenants', { ...tenants, name: 'other' })).rejects.toThrow(ValidationFailed);
    });

    it('refuses to edit a built-in type with ValidationFailed', async () => {
      const { service } = strategyTypes();

      await expect(service.update('default', { parameters: [] })).rejects.toThrow(ValidationFailed);
    });

    it('answers NotFound for a missing type and creates none', async () => {
      const { service, store } = strategyTypes();

      await expect(service.update('tenants', { parameters: [] })).rejects.toThrow(NotFound);

      expect(await store.get('tenants')).toBeUndefined();
    });
  });

  describe('delete', () => {
    it('deletes a custom type no feature uses', async () => {
      const { service } = strategyTypes();
      await service.create(tenants);

      await service.delete('tenants');

      await expect(service.get('tenants')).rejects.toThrow(NotFound);
    });

    it('refuses a built-in type with ValidationFailed and a missing one with NotFound', async () => {
      const { service } = strategyTypes();

      await expect(service.delete('default')).rejects.toThrow(ValidationFailed);
      await expect(service.delete('tenants')).rejects.toThrow(NotFound);
    });

    it('refuses a type in use with Conflict naming five of the features, archived ones marked, and how many more', async () => {
      const users = [user('a'), user('b', true), user('c'), user('d'), user('e'), user('f'), user('g')];
      const { service } = strategyTypes(async () => users);
      await service.create(tenants);

      await expect(service.delete('tenants')).rejects.toThrow(new Conflict(
        'The strategy type tenants is in use by a (project default), b (project default, archived), c (project default), '
        + 'd (project default), e (project default) and 2 more; remove those strategies first, or deprecate the type',
      ));
      expect((await service.get('tenants')).name).toBe('tenants');
    });

    it('looks again when a feature started using the type after the check, and refuses once it is seen', async () => {
      let checks = 0;
      const { service, store } = strategyTypes(async () => {
        if (checks++ === 0) {
          store.markUsed('tenants');
          return [];
        }
        return [user('late')];
      });
      await service.create(tenants);

      await expect(service.delete('tenants')).rejects.toThrow(/in use by late/);

      expect(checks).toBe(2);
      expect(await store.get('tenants')).toMatchObject({ kind: 'custom', usageMark: 1 });
    });

    it('deletes with the new mark when the use that moved it is gone by the second look', async () => {
      let checks = 0;
      const { service, store } = strategyTypes(async () => {
        if (checks++ === 0) store.markUsed('tenants');
        return [];
      });
      await service.create(tenants);

      await service.delete('tenants');

      expect(checks).toBe(2);
      expect(await store.get('tenants')).toBeUndefined();
    });

    it('gives up with Conflict when the type keeps being put to use, and keeps it', async () => {
      const { service, store } = strategyTypes(async () => {
        store.markUsed('tenants');
        return [];
      });
      await service.create(tenants);

      await expect(service.delete('tenants')).rejects.toThrow(/kept being put to use/);

      expect(await store.get('tenants')).toMatchObject({ kind: 'custom', usageMark: 3 });
    });
  });

  describe('setDeprecated', () => {
    it('deprecates and undeprecates a custom type', async () => {
      const { service } = strategyTypes();
      await service.create(tenants);

      await service.setDeprecated('tenants', true);
      expect((await service.get('tenants')).deprecated).toBe(true);

      await service.setDeprecated('tenants', false);
      expect((await service.get('tenants')).deprecated).toBe(false);
    });

    it('undeprecates a built-in type deprecated in code', async () => {
      const { service } = strategyTypes();
      expect((await service.get('userWithId')).deprecated).toBe(true);

      await service.setDeprecated('userWithId', false);

      expect((await service.get('userWithId')).deprecated).toBe(false);
    });

    it('answers NotFound for a missing custom type and stores nothing', async () => {
      const { service, store } = strategyTypes();

      await expect(service.setDeprecated('tenants', true)).rejects.toThrow(NotFound);

      expect(await store.list()).toEqual([]);
    });
  });
});
