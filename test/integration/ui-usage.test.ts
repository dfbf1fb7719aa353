import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

/** The admin UI's "where is this used" reads and its read of one feature environment. */
const { call, token } = adminSession();
const steps = featureSteps(call, token);
const get = (path: string) => call({ method: 'GET', path, token });
const post = (path: string, body: unknown) => call({ method: 'POST', path, token, body });

async function createSegment(): Promise<number> {
  const res = await post('/api/admin/segments', { name: unique('seg'), constraints: [] });
  if (res.status !== 201) throw new Error(`segment not created: ${res.status} ${res.text}`);
  return res.body.id;
}

async function addStrategy(project: string, feature: string, environment: string, body: Record<string, unknown>): Promise<string> {
  const res = await steps.addStrategy(project, feature, environment, body);
  if (res.status !== 200) throw new Error(`strategy not added: ${res.status} ${res.text}`);
  return res.body.id;
}

const archive = (feature: string) => call({ method: 'DELETE', path: steps.base('default', feature), token });

describe('GET /api/admin/segments/{id}/strategies', () => {
  it('lists the strategies that use the segment in every environment, leaving out archived features', async () => {
    const segment = await createSegment();
    const [used, archived, other] = await Promise.all([steps.createFeature(), steps.createFeature(), steps.createFeature()]);
    const inDevelopment = await addStrategy('default', used, 'development', { name: 'default', segments: [segment] });
    const inProduction = await addStrategy('default', used, 'production', { name: 'userWithId', parameters: { userIds: 'u-1' }, segments: [segment] });
    await addStrategy('default', archived, 'development', { name: 'default', segments: [segment] });
    await addStrategy('default', other, 'development', { name: 'default' });
    await archive(archived);

    const res = await get(`/api/admin/segments/${segment}/strategies`);

    expect(res.status).toBe(200);
    expect(res.body.changeRequestStrategies).toEqual([]);
    expect(res.body.strategies).toHaveLength(2);
    expect(res.body.strategies).toEqual(expect.arrayContaining([
      { id: inDevelopment, projectId: 'default', featureName: used, strategyName: 'default', environment: 'development' },
      { id: inProduction, projectId: 'default', featureName: used, strategyName: 'userWithId', environment: 'production' },
    ]));
  });

  it('answers an empty list for a segment no strategy uses, 404 for an unknown one and 400 naming the id for a bad one', async () => {
    const unused = await get(`/api/admin/segments/${await createSegment()}/strategies`);
    const unknown = await get('/api/admin/segments/999999999/strategies');
    const bad = await get('/api/admin/segments/abc/strategies');

    expect(unused.status).toBe(200);
    expect(unused.body).toEqual({ strategies: [], changeRequestStrategies: [] });
    expect(unknown.status).toBe(404);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('id');
  });
});

describe('GET /api/admin/segments/strategies/{strategyId}', () => {
  it("lists the strategy's segments, and none for a strategy without segments or an unknown one", async () => {
    const [first, second, unused] = await Promise.all([createSegment(), createSegment(), createSegment()]);
    const feature = await steps.createFeature();
    const strategy = await addStrategy('default', feature, 'development', { name: 'default', segments: [first, second] });
    const plain = await addStrategy('default', feature, 'production', { name: 'default' });

    const res = await get(`/api/admin/segments/strategies/${strategy}`);
    const none = await get(`/api/admin/segments/strategies/${plain}`);
    const unknown = await get('/api/admin/segments/strategies/00000000-0000-4000-8000-000000000000');

    expect(res.status).toBe(200);
    expect(res.body.segments.map((segment: { id: number }) => segment.id).sort()).toEqual([first, second].sort());
    expect(res.body.segments.map((segment: { id: number }) => segment.id)).not.toContain(unused);
    expect([none.status, none.body]).toEqual([200, { segments: [] }]);
    expect([unknown.status, unknown.body]).toEqual([200, { segments: [] }]);
  });
});

describe('GET /api/admin/context/{name}/strategies', () => {
  it("lists the strategies whose constraints test the field, leaving out archived features' and others'", async () => {
    const field = unique('tenant');
    expect((await post('/api/admin/context', { name: field })).status).toBe(201);
    const [used, archived] = await Promise.all([steps.createFeature(), steps.createFeature()]);
    const constraint = { contextName: field, operator: 'IN', values: ['acme'] };
    const testing = await addStrategy('default', used, 'production', { name: 'default', constraints: [constraint] });
    await addStrategy('default', used, 'development', { name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', values: ['u-1'] }] });
    await addStrategy('default', archived, 'development', { name: 'default', constraints: [constraint] });
    await archive(archived);

    const res = await get(`/api/admin/context/${field}/strategies`);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      strategies: [{ id: testing, projectId: 'default', featureName: used, strategyName: 'default', environment: 'production' }],
    });
  });

  it('answers an empty list for an unknown field, as Unleash does', async () => {
    const res = await get(`/api/admin/context/${unique('nofield')}/strategies`);

    expect([res.status, res.body]).toEqual([200, { strategies: [] }]);
  });
});

describe('GET /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}', () => {
  it('answers the feature in the environment: on or off and its strategies in sort order', async () => {
    const feature = await steps.createFeature();
    const second = await addStrategy('default', feature, 'development', { name: 'default', sortOrder: 2 });
    const first = await addStrategy('default', feature, 'development', { name: 'default', sortOrder: 1, title: 'first' });
    await steps.turn('default', feature, 'development', 'on');

    const on = await get(`${steps.base('default', feature)}/environments/development`);
    const off = await get(`${steps.base('default', feature)}/environments/production`);

    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ name: feature, environment: 'development', enabled: true });
    expect(on.body.strategies.map((strategy: { id: string }) => strategy.id)).toEqual([first, second]);
    expect(on.body.strategies[0]).toMatchObject({ name: 'default', title: 'first', featureName: feature, sortOrder: 1, constraints: [], segments: [] });
    expect(off.body).toEqual({ name: feature, environment: 'production', enabled: false, strategies: [] });
  });

  it('answers 404 for an unknown feature, environment or project, and for a feature of another project', async () => {
    const feature = await steps.createFeature();
    const project = await steps.createProject();

    const answers = await Promise.all([
      get(`${steps.base('default', unique('missing'))}/environments/development`),
      get(`${steps.base('default', feature)}/environments/${unique('env')}`),
      get(`${steps.base(unique('proj'), feature)}/environments/development`),
      get(`${steps.base(project, feature)}/environments/development`),
    ]);

    expect(answers.map((res) => res.status)).toEqual([404, 404, 404, 404]);
    expect(answers.map((res) => res.body.name)).toEqual(['NotFoundError', 'NotFoundError', 'NotFoundError', 'NotFoundError']);
    expect(answers.every((res) => res.body.strategies === undefined)).toBe(true);
  });
});
