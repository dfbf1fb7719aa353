import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { environment, featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const rollout = (percent: string | number) => ({ name: 'flexibleRollout', parameters: { rollout: percent, stickiness: '', groupId: 'g' } });

describe('adding strategies', () => {
  it('answers the strategy with an id, string parameters, sortOrder 0 then 1, and leaves the environment off', async () => {
    const name = await steps.createFeature();

    const first = await steps.addStrategy('default', name, 'development', rollout(50));
    const second = await steps.addStrategy('default', name, 'development', { name: 'default' });
    const feature = await steps.getFeature('default', name);

    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      name: 'flexibleRollout', featureName: name, sortOrder: 0, disabled: false, title: null,
      parameters: { rollout: '50', stickiness: 'default', groupId: 'g' }, constraints: [], segments: [], variants: [],
    });
    expect(first.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.body.sortOrder).toBe(1);
    expect(environment(feature.body, 'development')).toMatchObject({ enabled: false, hasEnabledStrategies: true });
  });

  it.each([
    [{ name: 'no-such-type' }, 'name:'],
    [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'LIKE', values: ['a'] }] }, 'constraints.0.operator'],
    [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'IN', value: 'u-1' }] }, 'constraints.0'],
    [{ name: 'default', constraints: [{ contextName: 'userId', operator: 'NUM_GT', value: 'ten' }] }, 'constraints.0'],
    [{ name: 'default', constraints: [{ contextName: 'currentTime', operator: 'DATE_AFTER', value: 'tomorrow' }] }, 'constraints.0'],
    [{ name: 'default', constraints: [{ contextName: 'appName', operator: 'SEMVER_GT', value: '1.x' }] }, 'constraints.0'],
    [{ name: 'default', constraints: [{ contextName: unique('nofield'), operator: 'IN', values: ['a'] }] }, 'constraints.0.contextName'],
    [{ name: 'default', parameters: { rollout: { nested: true } } }, 'parameters'],
    [{ name: 'default', segments: [987654321] }, 'segments'],
    [{ name: 'default', variants: [{ name: 'a', weight: 1001, weightType: 'variable', stickiness: 'default' }] }, 'variants.0.weight'],
    [{ name: 'default', variants: [{ name: 'a', weight: 500, weightType: 'fix', stickiness: 'default' }] }, 'variable'],
  ])('refuses %j with 400 naming %s', async (body, needle) => {
    const name = await steps.createFeature();

    const res = await steps.addStrategy('default', name, 'development', body);

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(needle);
  });

  it('accepts every operator family in its valid form', async () => {
    const name = await steps.createFeature();
    const constraints = [
      { contextName: 'userId', operator: 'NOT_IN', values: ['a'], inverted: true },
      { contextName: 'userId', operator: 'STR_CONTAINS', values: ['x'], caseInsensitive: true },
      { contextName: 'userId', operator: 'NUM_LTE', value: '4.5' },
      { contextName: 'currentTime', operator: 'DATE_BEFORE', value: '2030-01-01T00:00:00.000Z' },
      { contextName: 'appName', operator: 'SEMVER_EQ', value: '1.2.3-beta.1' },
    ];

    const res = await steps.addStrategy('default', name, 'development', { name: 'default', constraints });

    expect(res.status).toBe(200);
    expect(res.body.constraints).toHaveLength(5);
    expect(res.body.constraints[2]).toMatchObject({ value: '4.5', values: [], inverted: false, caseInsensitive: false });
  });

  it('refuses an environment that is not in the project with 400', async () => {
    const project = await steps.createProject({ environments: ['development'] });
    const name = await steps.createFeature(project);

    const res = await steps.addStrategy(project, name, 'production', { name: 'default' });

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain('production');
    const feature = (await steps.getFeature(project, name)).body;
    expect(feature.environments.map((e: { name: string }) => e.name)).toEqual(['development']);
    expect(environment(feature, 'development').strategies).toEqual([]);
  });
});

describe('updating and deleting strategies', () => {
  it('switches the environment off when its last active strategy is disabled or deleted', async () => {
    const name = await steps.createFeature();
    await steps.turn('default', name, 'development', 'on');
    const [strategy] = (await call({ method: 'GET', path: `${steps.base('default', name)}/environments/development/strategies`, token })).body;
    const path = `${steps.base('default', name)}/environments/development/strategies/${strategy.id}`;

    const disabled = await call({ method: 'PUT', path, token, body: { ...strategy, disabled: true } });
    const afterDisable = await steps.getFeature('default', name);
    await steps.turn('default', name, 'production', 'on');
    const prodStrategies = (await call({ method: 'GET', path: `${steps.base('default', name)}/environments/production/strategies`, token })).body;
    const deleted = await call({
      method: 'DELETE', path: `${steps.base('default', name)}/environments/production/strategies/${prodStrategies[0].id}`, token,
    });
    const afterDelete = await steps.getFeature('default', name);

    expect(disabled.status).toBe(200);
    expect(environment(afterDisable.body, 'development').enabled).toBe(false);
    expect(deleted.status).toBe(200);
    expect(environment(afterDelete.body, 'production')).toMatchObject({ enabled: false, strategies: [] });
  });

  it('answers 404 for an unknown strategy id', async () => {
    const name = await steps.createFeature();
    const id = unique('x');

    const res = await call({ method: 'GET', path: `${steps.base('default', name)}/environments/development/strategies/${id}`, token });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(id);
  });
});

describe('E7 on and off', () => {
  it("adds a 100% flexibleRollout grouped by the feature's name when no strategy is active, and answers the Feature", async () => {
    const name = await steps.createFeature();

    const res = await steps.turn('default', name, 'development', 'on');

    expect(res.status).toBe(200);
    expect(res.body.name).toBe(name);
    const development = environment(res.body, 'development');
    expect(development.enabled).toBe(true);
    expect(development.strategies).toHaveLength(1);
    expect(development.strategies[0]).toMatchObject({
      name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: name },
    });
  });

  it('keeps existing active strategies, and off leaves strategies alone', async () => {
    const name = await steps.createFeature();
    await steps.addStrategy('default', name, 'development', { name: 'default' });

    const on = await steps.turn('default', name, 'development', 'on');
    const off = await steps.turn('default', name, 'development', 'off');

    expect(environment(on.body, 'development').strategies.map((s: { name: string }) => s.name)).toEqual(['default']);
    expect(environment(off.body, 'development')).toMatchObject({ enabled: false, hasStrategies: true });
  });

  it('uses the project default strategy when one is set', async () => {
    const project = await steps.createProject();
    await call({
      method: 'POST', path: `/api/admin/projects/${project}/environments/development/default-strategy`, token,
      body: { name: 'flexibleRollout', constraints: [], parameters: { rollout: '25', stickiness: 'sessionId', groupId: '' } },
    });
    const name = await steps.createFeature(project);

    const res = await steps.turn(project, name, 'development', 'on');

    expect(environment(res.body, 'development').strategies[0].parameters).toEqual({ rollout: '25', stickiness: 'sessionId', groupId: name });
  });

  it('answers 404 for an unknown environment and feature, and 400 for an archived feature', async () => {
    const name = await steps.createFeature();
    const archived = await steps.createFeature();
    await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: [archived] } });

    const ghost = unique('ghost');
    const unknownEnv = await steps.turn('default', name, 'staging', 'on');
    const unknownFeature = await steps.turn('default', ghost, 'development', 'on');
    const archivedOn = await steps.turn('default', archived, 'development', 'on');

    expect(unknownEnv.status).toBe(404);
    expect(unknownEnv.body.name).toBe('NotFoundError');
    expect(unknownEnv.body.message).toContain('staging');
    expect(unknownFeature.status).toBe(404);
    expect(unknownFeature.body.name).toBe('NotFoundError');
    expect(unknownFeature.body.message).toContain(ghost);
    expect(archivedOn.status).toBe(400);
    expect(archivedOn.body.name).toBe('ValidationError');
    expect(archivedOn.body.message).toContain('archived');
    // Nothing was switched on: the feature's environments are all off, with no strategy added.
    const feature = (await steps.getFeature('default', name)).body;
    expect(feature.environments.filter((e: { enabled: boolean }) => e.enabled)).toEqual([]);
    expect(feature.environments.flatMap((e: { strategies: unknown[] }) => e.strategies)).toEqual([]);
    expect((await steps.getFeature('default', ghost)).status).toBe(404);
  });
});

describe('segments on strategies', () => {
  it('keeps a segment in use from being deleted until no strategy uses it', async () => {
    const name = await steps.createFeature();
    const segment = await call({
      method: 'POST', path: '/api/admin/segments', token,
      body: { name: unique('seg'), constraints: [{ contextName: 'userId', operator: 'IN', values: ['u1'] }] },
    });
    const added = await steps.addStrategy('default', name, 'development', { name: 'default', segments: [segment.body.id] });

    const refused = await call({ method: 'DELETE', path: `/api/admin/segments/${segment.body.id}`, token });
    await call({ method: 'DELETE', path: `${steps.base('default', name)}/environments/development/strategies/${added.body.id}`, token });
    const deleted = await call({ method: 'DELETE', path: `/api/admin/segments/${segment.body.id}`, token });

    expect(added.status).toBe(200);
    expect(added.body.segments).toEqual([segment.body.id]);
    expect(refused.status).toBe(409);
    expect(deleted.status).toBe(204);
  });

  it('refuses a segment of another project and more than five segments', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature();
    const foreign = await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: unique('seg'), project, constraints: [] } });
    const ids: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      ids.push((await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: unique('seg'), constraints: [] } })).body.id);
    }

    const wrongProject = await steps.addStrategy('default', name, 'development', { name: 'default', segments: [foreign.body.id] });
    const tooMany = await steps.addStrategy('default', name, 'development', { name: 'default', segments: ids });

    expect(wrongProject.status).toBe(400);
    expect(wrongProject.body.message).toContain(project);
    expect(tooMany.status).toBe(400);
  });

  it('refuses constraint values outside the context field legal values', async () => {
    const field = unique('region');
    await call({ method: 'POST', path: '/api/admin/context', token, body: { name: field, legalValues: [{ value: 'eu' }, { value: 'us' }] } });
    const name = await steps.createFeature();

    const legal = await steps.addStrategy('default', name, 'development', { name: 'default', constraints: [{ contextName: field, operator: 'IN', values: ['eu'] }] });
    const illegal = await steps.addStrategy('default', name, 'development', { name: 'default', constraints: [{ contextName: field, operator: 'IN', values: ['mars'] }] });

    expect(legal.status).toBe(200);
    expect(illegal.status).toBe(400);
    expect(illegal.body.message).toContain('mars');
  });
});
