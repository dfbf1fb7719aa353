import { describe, expect, it } from 'vitest';
import { DEFAULT_ENVIRONMENT_SORT_ORDER, EnvironmentService } from '../../../lib/environments/service.js';
import { Conflict, NotFound } from '../../../lib/errors.js';
import { FakeEnvironmentStore } from '../../support/fakes/environment-store.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

function environments() {
  const store = new FakeEnvironmentStore();
  return { store, service: new EnvironmentService(store, () => NOW) };
}

describe('EnvironmentService on a fake store', () => {
  it('creates an enabled, unprotected environment, last in sort order and dated now, unless told otherwise', async () => {
    const { service } = environments();

    const created = await service.create({ name: 'staging', type: 'test' });
    const disabled = await service.create({ name: 'qa', type: 'test', enabled: false, sortOrder: 4 });

    expect(created).toEqual({ name: 'staging', type: 'test', enabled: true, protected: false, sortOrder: DEFAULT_ENVIRONMENT_SORT_ORDER, createdAt: NOW.toISOString() });
    expect(await service.get('staging')).toEqual(created);
    expect(await service.get('qa')).toEqual(disabled);
    expect(disabled).toMatchObject({ enabled: false, sortOrder: 4 });
  });

  it('refuses a taken name with Conflict and keeps the first environment', async () => {
    const { service } = environments();
    await service.create({ name: 'staging', type: 'test' });

    await expect(service.create({ name: 'staging', type: 'production' })).rejects.toThrow(new Conflict('An environment with the name staging already exists'));

    expect((await service.get('staging')).type).toBe('test');
  });

  it('lists environments by sort order, then name', async () => {
    const { service } = environments();
    await service.create({ name: 'production', type: 'production', sortOrder: 2 });
    await service.create({ name: 'staging', type: 'test' });
    await service.create({ name: 'development', type: 'development', sortOrder: 1 });
    await service.create({ name: 'beta', type: 'test' });

    expect((await service.list()).map((environment) => environment.name)).toEqual(['development', 'production', 'beta', 'staging']);
  });

  it('answers NotFound in Unleash\'s words for a missing environment', async () => {
    const { service } = environments();

    await expect(service.get('staging')).rejects.toThrow(new NotFound('Could not find environment with name staging'));
  });
});
