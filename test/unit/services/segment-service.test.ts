import { describe, expect, it } from 'vitest';
import { Conflict, NotFound, ValidationFailed } from '../../../lib/errors.js';
import type { Constraint, Feature, FeatureStrategy } from '../../../lib/features/model.js';
import { RESOURCE_LIMITS } from '../../../lib/limits.js';
import { SegmentService } from '../../../lib/segments/service.js';
import { FakeSegmentStore } from '../../support/fakes/segment-store.js';
import { storedFeature } from '../../support/seed-features.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

/** The service on a fake store, with the projects that exist and the features there are. */
function segments({ projects = ['default', 'shop'], features = [] as Feature[] } = {}) {
  const store = new FakeSegmentStore();
  const service = new SegmentService(
    store,
    { projectExists: async (id) => projects.includes(id) },
    { listAll: async () => features },
    async () => features,
    () => NOW,
  );
  return { store, service };
}

const constraint = (values: string[]): Constraint => ({ contextName: 'tenant', operator: 'IN', values, caseInsensitive: false, inverted: false });

const strategy = (id: string, segmentIds: number[]): FeatureStrategy => ({
  id, name: 'default', title: null, disabled: false, sortOrder: 0, parameters: {}, variants: [], constraints: [], segments: segmentIds,
});

/** A feature in `project` whose one strategy in production uses the segments. */
const using = (name: string, project: string, segmentIds: number[], archived = false): Feature =>
  storedFeature(name, project, { archived, environments: { production: { enabled: true, variants: [], strategies: [strategy(`${name}-s`, segmentIds)] } } });

const beta = { name: 'beta users', constraints: [constraint(['acme'])] };

describe('SegmentService on a fake store', () => {
  describe('create', () => {
    it('makes a global segment with a new id, the defaults of what the input leaves out, dated now and by its creator', async () => {
      const { service } = segments();

      const created = await service.create(beta, 'admin@example.com');

      expect(created).toEqual({
        id: 1, name: 'beta users', description: null, project: null, constraints: [constraint(['acme'])],
        createdAt: NOW.toISOString(), createdBy: 'admin@example.com',
      });
      expect(await service.get(1)).toEqual(created);
    });

    it('refuses a taken name with Conflict, also on validate, and does not reuse the id it drew', async () => {
      const { service } = segments();
      await service.create(beta, null);

      await expect(service.create(beta, null)).rejects.toThrow(new Conflict('Segment name already exists'));
      await expect(service.checkNewName('beta users')).rejects.toThrow(Conflict);
      await expect(service.checkNewName('early adopters')).resolves.toBeUndefined();

      expect((await service.create({ ...beta, name: 'early adopters' }, null)).id).toBe(3);
    });

    it('refuses more constraint values than the limit with ValidationFailed, and draws no id', async () => {
      const { service, store } = segments();
      const half = Array.from({ length: RESOURCE_LIMITS.segmentValues / 2 + 1 }, (_, index) => `v${index}`);

      await expect(service.create({ ...beta, constraints: [constraint(half), constraint(half)] }, null)).rejects.toThrow(ValidationFailed);

      expect(await store.list()).toEqual([]);
      expect(await store.nextId()).toBe(1);
    });

    it('refuses a project that does not exist with ValidationFailed', async () => {
      const { service } = segments();

      await expect(service.create({ ...beta, project: 'nowhere' }, null)).rejects.toThrow(new ValidationFailed('project: no project with id nowhere exists'));

      expect(await service.list()).toEqual([]);
    });
  });

  describe('update', () => {
    it('replaces the details and keeps id, createdAt and createdBy', async () => {
      const { service } = segments();
      const created = await service.create(beta, 'admin@example.com');

      const updated = await service.update(created.id, { name: 'early adopters', project: 'shop', constraints: [] });

      expect(updated).toEqual({ ...created, name: 'early adopters', project: 'shop', constraints: [] });
      expect(await service.get(created.id)).toEqual(updated);
    });

    it('refuses another segment\'s name with Conflict and a missing segment with NotFound', async () => {
      const { service } = segments();
      const created = await service.create(beta, null);
      await service.create({ ...beta, name: 'early adopters' }, null);

      await expect(service.update(created.id, { ...beta, name: 'early adopters' })).rejects.toThrow(Conflict);
      await expect(service.update(99, beta)).rejects.toThrow(new NotFound('Could not find segment with id 99'));

      expect(await service.get(created.id)).toEqual(created);
    });

    it('refuses to scope a segment to one project while strategies of another use it', async () => {
      const { service } = segments({ features: [using('checkout', 'shop', [1]), using('search', 'default', [1])] });
      await service.create(beta, null);

      await expect(service.update(1, { ...beta, project: 'shop' })).rejects.toThrow(
        new ValidationFailed('project: the segment is used by strategies in other projects (default)'),
      );
      expect((await service.get(1)).project).toBeNull();
    });

    it('scopes a segment to the one project whose strategies use it', async () => {
      const { service } = segments({ features: [using('checkout', 'shop', [1])] });
      await service.create(beta, null);

      expect((await service.update(1, { ...beta, project: 'shop' })).project).toBe('shop');
    });
  });

  describe('delete', () => {
    it('deletes a segment no strategy uses, freeing its name', async () => {
      const { service } = segments();
      await service.create(beta, null);

      await service.delete(1);

      await expect(service.get(1)).rejects.toThrow(NotFound);
      await expect(service.checkNewName('beta users')).resolves.toBeUndefined();
    });

    it('refuses a segment in use with Conflict, and a missing one with NotFound', async () => {
      const { service, store } = segments();
      await service.create(beta, null);
      await store.putInUse(1);

      await expect(service.delete(1)).rejects.toThrow(new Conflict('Segment is in use by one or more strategies'));
      await expect(service.delete(2)).rejects.toThrow(NotFound);

      expect((await service.get(1)).name).toBe('beta users');
    });
  });

  describe('usage', () => {
    it('counts the features, archived ones too, and their projects for each segment', async () => {
      const { service } = segments({
        features: [using('checkout', 'shop', [1, 2]), using('search', 'default', [1]), using('retired', 'shop', [1], true)],
      });
      await service.create(beta, null);
      await service.create({ ...beta, name: 'early adopters' }, null);
      await service.create({ ...beta, name: 'unused' }, null);

      const counts = (await service.listWithUsage()).map(({ name, usedInFeatures, usedInProjects }) => [name, usedInFeatures, usedInProjects]);

      expect(counts).toEqual([['beta users', 3, 2], ['early adopters', 1, 1], ['unused', 0, 0]]);
    });

    it('names the strategies of active features that use a segment, and NotFound for an unknown one', async () => {
      const { service } = segments({ features: [using('checkout', 'shop', [1]), using('retired', 'shop', [1], true), using('search', 'default', [2])] });
      await service.create(beta, null);

      expect((await service.strategiesUsing(1)).map((usage) => usage.featureName)).toEqual(['checkout']);
      await expect(service.strategiesUsing(5)).rejects.toThrow(NotFound);
    });

    it('answers the segments a strategy uses, archived features\' too, and none for an unknown strategy', async () => {
      const { service } = segments({ features: [using('retired', 'shop', [2], true)] });
      await service.create(beta, null);
      await service.create({ ...beta, name: 'early adopters' }, null);

      expect((await service.usedBy('retired-s')).map((segment) => segment.name)).toEqual(['early adopters']);
      expect(await service.usedBy('unknown')).toEqual([]);
    });
  });
});
