import { describe, expect, it } from 'vitest';
import { buildClientPayload, stringParameters, type ClientSnapshot } from '../../lib/client/payload.js';
import { resolveQuery, type ClientQuery } from '../../lib/client/query.js';
import type { Constraint, Feature, FeatureStrategy } from '../../lib/features/model.js';
import type { Segment } from '../../lib/segments/model.js';

const constraint = (contextName: string, values: string[]): Constraint => ({
  contextName, operator: 'IN', values, caseInsensitive: false, inverted: false,
});

const strategy = (overrides: Partial<FeatureStrategy> = {}): FeatureStrategy => ({
  id: 'id-1', name: 'flexibleRollout', title: 'A title', disabled: false, sortOrder: 0,
  constraints: [], parameters: { rollout: '100', stickiness: 'default', groupId: 'g' }, variants: [], segments: [],
  ...overrides,
});

const feature = (name: string, overrides: Partial<Feature> = {}): Feature => ({
  name, project: 'default', type: 'release', description: null, impressionData: false, stale: false,
  archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z',
  environments: { development: { enabled: true, strategies: [strategy()], variants: [] } },
  tags: [], dependencies: [], children: [], version: 1,
  ...overrides,
});

const segment = (id: number, name: string, constraints: Constraint[]): Segment => ({
  id, name, description: null, project: null, constraints, createdAt: '2026-01-01T00:00:00.000Z', createdBy: null,
});

const query = (overrides: Partial<ClientQuery> = {}): ClientQuery => ({
  environment: 'development', inlineSegmentConstraints: false, ...overrides,
});

const snapshot = (features: Feature[], segments: Segment[] = []): ClientSnapshot => ({
  features, segmentsById: new Map(segments.map((s) => [s.id, s])),
});

const meta = { revisionId: 7, etag: '"abcd1234:7"', queryHash: 'abcd1234' };
const build = (features: Feature[], q: ClientQuery = query(), segments: Segment[] = []) =>
  buildClientPayload(snapshot(features, segments), q, meta);

describe('which features the SDK payload serves', () => {
  it('serves non-archived features sorted by name, with version 2, the query echo and meta', () => {
    const payload = build([feature('b'), feature('a'), feature('c', { archived: true })]);

    expect(payload.version).toBe(2);
    expect(payload.features.map((f) => f.name)).toEqual(['a', 'b']);
    expect(payload.query).toEqual({ environment: 'development', inlineSegmentConstraints: false });
    expect(payload.meta).toEqual(meta);
  });

  it('keeps only the query projects, a case-sensitive name prefix, and any of several tags', () => {
    const features = [
      feature('web-a', { project: 'web', tags: [{ type: 'simple', value: 'beta' }] }),
      feature('web-b', { project: 'web', tags: [{ type: 'team', value: 'x' }] }),
      feature('Web-c', { project: 'web', tags: [{ type: 'simple', value: 'beta' }] }),
      feature('api-a', { project: 'api', tags: [{ type: 'simple', value: 'beta' }] }),
    ];

    const byProject = build(features, query({ projects: ['web'] }));
    const byPrefix = build(features, query({ namePrefix: 'web-' }));
    const byTags = build(features, query({ tags: [{ type: 'simple', value: 'beta' }, { type: 'team', value: 'x' }] }));
    const byAll = build(features, query({ projects: ['web'], namePrefix: 'web', tags: [{ type: 'simple', value: 'beta' }] }));

    expect(byProject.features.map((f) => f.name)).toEqual(['Web-c', 'web-a', 'web-b']);
    expect(byPrefix.features.map((f) => f.name)).toEqual(['web-a', 'web-b']);
    expect(byTags.features.map((f) => f.name)).toEqual(['Web-c', 'api-a', 'web-a', 'web-b']);
    expect(byAll.features.map((f) => f.name)).toEqual(['web-a']);
  });
});

describe('one feature in the SDK payload', () => {
  it('reads the selected environment and serves a missing environment as off with no strategies', () => {
    const f = feature('f', {
      environments: { production: { enabled: true, strategies: [strategy()], variants: [] } },
    });

    const [served] = build([f]).features;

    expect(served).toEqual({
      name: 'f', type: 'release', description: null, project: 'default', enabled: false,
      stale: false, impressionData: false, strategies: [], variants: [],
    });
  });

  it('drops disabled strategies, orders by sortOrder, and leaves out id, title, sortOrder and disabled', () => {
    const f = feature('f', {
      environments: {
        development: {
          enabled: true,
          variants: [],
          strategies: [
            strategy({ id: 's2', name: 'second', sortOrder: 2 }),
            strategy({ id: 's0', name: 'off', sortOrder: 0, disabled: true }),
            strategy({ id: 's1', name: 'first', sortOrder: 1, constraints: [constraint('userId', ['u1'])] }),
          ],
        },
      },
    });

    const strategies = build([f]).features[0]!.strategies;

    expect(strategies.map((s) => s.name)).toEqual(['first', 'second']);
    expect(strategies[0]).toEqual({
      name: 'first',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'], caseInsensitive: false, inverted: false }],
      parameters: { rollout: '100', stickiness: 'default', groupId: 'g' },
      variants: [],
    });
  });

  it('serves strategy variants and the environment’s feature variants, overrides only when present', () => {
    const f = feature('f', {
      environments: {
        development: {
          enabled: true,
          strategies: [strategy({ variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } }] })],
          variants: [
            { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u1'] }] },
            { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [] },
          ],
        },
      },
    });

    const served = build([f]).features[0]!;

    expect(served.strategies[0]!.variants).toEqual([
      { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'b' } },
    ]);
    expect(served.variants).toEqual([
      { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default', overrides: [{ contextName: 'userId', values: ['u1'] }] },
      { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
    ]);
  });

  it('sends dependencies only when present, with variants only when the parent must be enabled', () => {
    const child = feature('child', {
      dependencies: [{ feature: 'parent', enabled: true, variants: ['blue'] }],
    });
    const offChild = feature('off-child', { dependencies: [{ feature: 'parent', enabled: false, variants: [] }] });

    const [served, offServed, parent] = build([child, offChild, feature('parent')]).features;

    expect(served!.dependencies).toEqual([{ feature: 'parent', enabled: true, variants: ['blue'] }]);
    expect(offServed!.dependencies).toEqual([{ feature: 'parent', enabled: false }]);
    expect(parent).not.toHaveProperty('dependencies');
  });

  it('carries impressionData, stale, type, description and project', () => {
    const f = feature('f', { impressionData: true, stale: true, type: 'kill-switch', description: 'Why', project: 'web' });

    expect(build([f]).features[0]).toMatchObject({
      impressionData: true, stale: true, type: 'kill-switch', description: 'Why', project: 'web',
    });
  });

  it('turns every parameter into text: numbers, booleans, objects as JSON, null as empty', () => {
    expect(stringParameters({ rollout: 50, on: true, list: ['a'], none: null, text: 'x' })).toEqual({
      rollout: '50', on: 'true', list: '["a"]', none: '', text: 'x',
    });
  });
});

describe('segments in the SDK payload', () => {
  const beta = segment(3, 'beta-users', [constraint('plan', ['beta'])]);
  const alpha = segment(9, 'alpha-users', [constraint('plan', ['alpha'])]);
  const unused = segment(4, 'unused', []);
  const withSegments = feature('f', {
    environments: {
      development: {
        enabled: true, variants: [],
        strategies: [strategy({ constraints: [constraint('userId', ['u1'])], segments: [3, 9] }), strategy({ sortOrder: 1 })],
      },
    },
  });

  it('lists the used segments by name and refers to them by id when the SDK reads them as a list', () => {
    const payload = build([withSegments], query({ inlineSegmentConstraints: false }), [beta, alpha, unused]);

    expect(payload.segments).toEqual([
      { id: 9, name: 'alpha-users', constraints: [alpha.constraints[0]] },
      { id: 3, name: 'beta-users', constraints: [beta.constraints[0]] },
    ]);
    expect(payload.features[0]!.strategies[0]).toMatchObject({ segments: [3, 9], constraints: [constraint('userId', ['u1'])] });
    expect(payload.features[0]!.strategies[1]).not.toHaveProperty('segments');
  });

  it('appends segment constraints to the strategy’s own and sends no segments when inlining', () => {
    const payload = build([withSegments], query({ inlineSegmentConstraints: true }), [beta, alpha]);

    expect(payload).not.toHaveProperty('segments');
    expect(payload.features[0]!.strategies[0]).not.toHaveProperty('segments');
    expect(payload.features[0]!.strategies[0]!.constraints).toEqual([
      constraint('userId', ['u1']), constraint('plan', ['beta']), constraint('plan', ['alpha']),
    ]);
  });

  it('inlines a segment missing from the snapshot as a constraint nothing matches, never dropping it', () => {
    const payload = build([withSegments], query({ inlineSegmentConstraints: true }), [beta]);

    expect(payload.features[0]!.strategies[0]!.constraints.at(-1)).toEqual({
      contextName: 'missing-segment-9', operator: 'IN', values: [], caseInsensitive: false, inverted: false,
    });
  });
});

describe('the payload’s query echo', () => {
  it('echoes projects, prefix and tags as Unleash does (tags as [type, value])', () => {
    const q = resolveQuery(
      { tokenName: 'admin', type: 'admin', environment: '*', projects: ['*'] },
      { projects: ['web'], namePrefix: 'web-', tags: [{ type: 'simple', value: 'beta' }], clientSpec: '5.2.0' },
    );

    expect(build([], q).query).toEqual({
      environment: 'development', inlineSegmentConstraints: false, project: ['web'], namePrefix: 'web-', tag: [['simple', 'beta']],
    });
  });
});
