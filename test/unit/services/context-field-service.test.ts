import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_FIELD_SORT_ORDER, ContextFieldService } from '../../../lib/context-fields/service.js';
import { Conflict, NotFound, ValidationFailed } from '../../../lib/errors.js';
import type { Feature, FeatureStrategy } from '../../../lib/features/model.js';
import { FakeContextFieldStore } from '../../support/fakes/context-field-store.js';
import { storedFeature } from '../../support/seed-features.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

function contextFields(features: Feature[] = []) {
  const store = new FakeContextFieldStore();
  return { store, service: new ContextFieldService(store, async () => features, () => NOW) };
}

const strategy = (id: string, contextNames: string[]): FeatureStrategy => ({
  id, name: 'default', title: null, disabled: false, sortOrder: 0, parameters: {}, variants: [], segments: [],
  constraints: contextNames.map((contextName) => ({ contextName, operator: 'IN', values: ['x'], inverted: false, caseInsensitive: false })),
});

describe('ContextFieldService on a fake store', () => {
  it('creates a field with the defaults of what the input leaves out, dated now', async () => {
    const { service } = contextFields();

    const created = await service.create({ name: 'tenant' });

    const expected = { name: 'tenant', description: null, stickiness: false, sortOrder: DEFAULT_CONTEXT_FIELD_SORT_ORDER, legalValues: [], createdAt: NOW.toISOString() };
    expect(created).toEqual(expected);
    expect(await service.get('tenant')).toEqual(expected);
  });

  it('refuses a taken name with Conflict and keeps the first field', async () => {
    const { service } = contextFields();
    await service.create({ name: 'tenant', description: 'first' });

    await expect(service.create({ name: 'tenant', description: 'second' })).rejects.toThrow(Conflict);

    expect((await service.get('tenant')).description).toBe('first');
  });

  it('lists fields by sort order, then name', async () => {
    const { service } = contextFields();
    await service.create({ name: 'b', sortOrder: 2 });
    await service.create({ name: 'c', sortOrder: 1 });
    await service.create({ name: 'a', sortOrder: 2 });

    expect((await service.list()).map((field) => field.name)).toEqual(['c', 'a', 'b']);
  });

  it('answers NotFound in Unleash\'s words for a missing field; find answers undefined', async () => {
    const { service } = contextFields();

    await expect(service.get('tenant')).rejects.toThrow(new NotFound('Could not find Context field with name tenant'));
    expect(await service.find('tenant')).toBeUndefined();
  });

  it('resets on update what the body leaves out, and keeps createdAt', async () => {
    const { service } = contextFields();
    await service.create({ name: 'tenant', description: 'Who pays', stickiness: true, sortOrder: 3, legalValues: [{ value: 'acme' }] });

    await service.update('tenant', { legalValues: [{ value: 'globex' }] });

    expect(await service.get('tenant')).toEqual({
      name: 'tenant', description: null, stickiness: false, sortOrder: DEFAULT_CONTEXT_FIELD_SORT_ORDER,
      legalValues: [{ value: 'globex' }], createdAt: NOW.toISOString(),
    });
  });

  it('refuses an update naming another field with ValidationFailed and leaves the field', async () => {
    const { service } = contextFields();
    await service.create({ name: 'tenant', description: 'Who pays' });

    await expect(service.update('tenant', { name: 'region' })).rejects.toThrow(ValidationFailed);

    expect((await service.get('tenant')).description).toBe('Who pays');
  });

  it('answers NotFound to an update or delete of a missing field, and creates none', async () => {
    const { service } = contextFields();

    await expect(service.update('tenant', {})).rejects.toThrow(NotFound);
    await expect(service.delete('tenant')).rejects.toThrow(NotFound);

    expect(await service.list()).toEqual([]);
  });

  it('deletes a field', async () => {
    const { service } = contextFields();
    await service.create({ name: 'tenant' });

    await service.delete('tenant');

    expect(await service.find('tenant')).toBeUndefined();
  });

  it('names the strategies of active features whose own constraints test the field', async () => {
    const { service } = contextFields([
      storedFeature('checkout', 'shop', {
        environments: {
          production: { enabled: true, variants: [], strategies: [strategy('s1', ['tenant']), strategy('s2', ['region'])] },
          development: { enabled: false, variants: [], strategies: [strategy('s3', ['region', 'tenant'])] },
        },
      }),
      storedFeature('retired', 'shop', {
        archived: true,
        environments: { production: { enabled: true, variants: [], strategies: [strategy('s4', ['tenant'])] } },
      }),
    ]);

    const using = await service.strategiesUsing('tenant');

    expect(using.map((usage) => [usage.featureName, usage.environment, usage.id])).toEqual([
      ['checkout', 'production', 's1'],
      ['checkout', 'development', 's3'],
    ]);
  });
});
