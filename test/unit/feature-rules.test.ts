import { describe, expect, it } from 'vitest';
import { FeatureAggregates, type Change } from '../../lib/features/aggregate.js';
import { environmentOf, type Feature, type FeatureEnvironment, type FeatureStrategy } from '../../lib/features/model.js';
import { keepEnabledInvariant, turnOn } from '../../lib/features/rules/environments.js';
import { normaliseVariants } from '../../lib/features/rules/variants.js';
import type { CommitOutcome, FeatureCommit, FeatureStore } from '../../lib/features/store.js';

type Variant = { name: string; weight: number; weightType: 'variable' | 'fix' };
const variable = (name: string): Variant => ({ name, weight: 0, weightType: 'variable' });
const fixed = (name: string, weight: number): Variant => ({ name, weight, weightType: 'fix' });

describe('variant weight normalisation', () => {
  it('shares 1000 among variable variants, the remainder one each to the first in input order, sorted by name', () => {
    const result = normaliseVariants([variable('c'), variable('a'), variable('b')]);

    expect(result.map((v) => [v.name, v.weight])).toEqual([['a', 333], ['b', 333], ['c', 334]]);
  });

  it('keeps fixed weights and gives variable variants what is left', () => {
    const result = normaliseVariants([fixed('blue', 250), variable('red'), variable('green')]);

    expect(result.map((v) => [v.name, v.weight])).toEqual([['blue', 250], ['green', 375], ['red', 375]]);
  });

  it('answers an empty list with an empty list', () => {
    expect(normaliseVariants([])).toEqual([]);
  });

  it.each([
    ['duplicate names', [variable('a'), variable('a')], /variants\.1\.name: variant names must be unique/],
    ['no variable variant', [fixed('a', 500)], /at least one "variable" variant/],
    ['fixed weights above 1000', [fixed('a', 600), fixed('b', 500), variable('c')], /add up to 1100, more than 1000/],
  ])('refuses %s with a ValidationError naming the field', (_case, variants, message) => {
    expect(() => normaliseVariants(variants, 'variants')).toThrow(message);
    expect(() => normaliseVariants(variants, 'variants')).toThrowError(expect.objectContaining({ kind: 'validation' }));
  });
});

const strategy = (overrides: Partial<FeatureStrategy> = {}): FeatureStrategy => ({
  id: 's1', name: 'default', title: null, disabled: false, sortOrder: 0, constraints: [],
  parameters: {}, variants: [], segments: [], ...overrides,
});

const feature = (development: FeatureEnvironment, version = 1): Feature => ({
  name: 'checkout', project: 'default', type: 'release', description: null, impressionData: false, stale: false,
  archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z', environments: { development },
  tags: [], dependencies: [], children: [], version,
});

describe("a feature's state in one environment", () => {
  it('is off with nothing in it for an environment named after an Object.prototype property', () => {
    const feature = { environments: { development: { enabled: true, strategies: [], variants: [] } } } as unknown as Feature;

    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(environmentOf(feature, name)).toEqual({ enabled: false, strategies: [], variants: [] });
    }
    expect(environmentOf(feature, 'development').enabled).toBe(true);
  });
});

describe('an environment is on only while it has an active strategy', () => {
  it('switches off when its only strategies are disabled', () => {
    const state = { enabled: true, strategies: [strategy({ disabled: true })], variants: [] };

    expect(keepEnabledInvariant(state).enabled).toBe(false);
  });

  it('stays on with one active strategy, and stays off when it was off', () => {
    const on = { enabled: true, strategies: [strategy(), strategy({ id: 's2', disabled: true })], variants: [] };
    const off = { enabled: false, strategies: [strategy()], variants: [] };

    expect(keepEnabledInvariant(on)).toBe(on);
    expect(keepEnabledInvariant(off)).toBe(off);
  });

  it('turning on with no active strategy adds a 100% rollout grouped by the feature name, after the others', () => {
    const before = feature({ enabled: false, strategies: [strategy({ disabled: true, sortOrder: 4 })], variants: [] });

    const after = turnOn(before, 'development', undefined, 'new-id').environments.development!;

    expect(after.enabled).toBe(true);
    expect(after.strategies[1]).toMatchObject({
      id: 'new-id', name: 'flexibleRollout', sortOrder: 5, disabled: false,
      parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout' },
    });
  });

  it("turning on uses the project's default strategy, filling an empty groupId with the feature name", () => {
    const before = feature({ enabled: false, strategies: [], variants: [] });
    const projectDefault = { name: 'flexibleRollout', constraints: [], parameters: { rollout: '25', stickiness: 'userId', groupId: '' } };

    const after = turnOn(before, 'development', projectDefault, 'id').environments.development!;

    expect(after.strategies).toHaveLength(1);
    expect(after.strategies[0]!.parameters).toEqual({ rollout: '25', stickiness: 'userId', groupId: 'checkout' });
  });

  it('turning on with an active strategy adds nothing', () => {
    const before = feature({ enabled: false, strategies: [strategy()], variants: [] });

    const after = turnOn(before, 'development', undefined, 'unused').environments.development!;

    expect(after.enabled).toBe(true);
    expect(after.strategies).toEqual([strategy()]);
  });
});

/** A feature store port in memory whose commits fail with the given outcomes first. */
function storeRefusing(outcomes: CommitOutcome[]) {
  const commits: FeatureCommit[] = [];
  let reads = 0;
  const store: FeatureStore = {
    get: async () => {
      reads += 1;
      return feature({ enabled: false, strategies: [], variants: [] }, reads);
    },
    getMany: async () => [],
    listAll: async () => [],
    listProject: async () => [],
    commit: async (change) => {
      commits.push(change);
      return outcomes.shift() ?? { ok: true };
    },
  };
  return { store, commits, reads: () => reads };
}

/** A change that writes the feature it read, one version on. */
const touch: Change<number> = async (read) => {
  const before = (await read('checkout'))!;
  return { commit: { writes: [{ before, after: { ...before, stale: true, version: before.version + 1 } }] }, result: before.version };
};

const versionChanged: CommitOutcome = { ok: false, reason: 'version-changed', feature: 'checkout' };

describe('the optimistic retry policy', () => {
  it('recomputes the change on fresh data after each lost race, and commits what it read last', async () => {
    const fake = storeRefusing([versionChanged, versionChanged]);

    const result = await new FeatureAggregates(fake.store).apply('tester', touch);

    expect(fake.commits).toHaveLength(3);
    expect(fake.reads()).toBe(3);
    expect(result).toBe(3);
    expect(fake.commits[2]!.writes[0]!.before?.version).toBe(3);
    expect(fake.commits[2]!.events).toEqual([expect.objectContaining({ type: 'feature-changed', createdBy: 'tester', changes: ['stale-on'] })]);
  });

  it('gives up with a 409 after 12 attempts that all lost', async () => {
    const fake = storeRefusing(Array.from({ length: 12 }, () => versionChanged));

    const outcome = new FeatureAggregates(fake.store).apply('tester', touch);

    await expect(outcome).rejects.toMatchObject({ kind: 'conflict', message: expect.stringMatching(/kept changing/) });
    expect(fake.commits).toHaveLength(12);
  });

  it('does not retry a refusal that fresh data cannot change', async () => {
    const fake = storeRefusing([{ ok: false, reason: 'name-taken', feature: 'checkout' }]);

    const outcome = new FeatureAggregates(fake.store).apply('tester', touch);

    await expect(outcome).rejects.toMatchObject({ kind: 'conflict', message: 'A flag with that name already exists' });
    expect(fake.commits).toHaveLength(1);
  });

  it('commits nothing when the change writes nothing', async () => {
    const fake = storeRefusing([]);

    const result = await new FeatureAggregates(fake.store).apply('tester', async () => ({ commit: { writes: [] }, result: 'unchanged' }));

    expect(result).toBe('unchanged');
    expect(fake.commits).toHaveLength(0);
  });
});
