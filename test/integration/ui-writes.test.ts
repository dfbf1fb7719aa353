import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { projectSteps } from '../support/projects.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);
const projects = projectSteps(call, token);
const post = (path: string, body: unknown) => call({ method: 'POST', path, token, body });
const rollout = (groupId: string) => ({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId } });

describe("the archive page's batch calls", () => {
  it('revives the named archived features of the project with every environment off, leaving active ones alone', async () => {
    const project = await projects.createProject();
    const [archived, active] = [await steps.createFeature(project), await steps.createFeature(project)];
    await steps.turn(project, archived, 'development', 'on');
    await post(`/api/admin/projects/${project}/archive`, { features: [archived] });

    const res = await post(`/api/admin/projects/${project}/revive`, { features: [archived, active] });
    const back = await steps.getFeature(project, archived);
    const list = await call({ method: 'GET', path: `/api/admin/projects/${project}/features`, token });

    expect(res.status).toBe(200);
    expect(back.status).toBe(200);
    expect(back.body.environments.every((e: { enabled: boolean }) => !e.enabled)).toBe(true);
    expect(list.body.features.map((f: { name: string }) => f.name).sort()).toEqual([archived, active].sort());
  });

  it('deletes the named archived features for good and leaves active ones', async () => {
    const project = await projects.createProject();
    const [archived, active] = [await steps.createFeature(project), await steps.createFeature(project)];
    await post(`/api/admin/projects/${project}/archive`, { features: [archived] });

    const res = await post(`/api/admin/projects/${project}/delete`, { features: [archived, active] });

    expect(res.status).toBe(200);
    expect((await post('/api/admin/features/validate', { name: archived })).status).toBe(200);
    // Gone from the archive too, not only from the names in use; the active one is untouched.
    const archive = await call({ method: 'GET', path: `/api/admin/archive/features?project=${project}`, token });
    expect(archive.body.features.map((f: { name: string }) => f.name)).not.toContain(archived);
    expect((await steps.getFeature(project, active)).body).toMatchObject({ name: active, project, archived: false });
    const list = await call({ method: 'GET', path: `/api/admin/projects/${project}/features`, token });
    expect(list.body.features.map((f: { name: string }) => f.name)).toEqual([active]);
  });

  it('refuses features of another project, changing nothing', async () => {
    const [mine, theirs] = [await projects.createProject(), await projects.createProject()];
    const feature = await steps.createFeature(theirs);
    await post(`/api/admin/projects/${theirs}/archive`, { features: [feature] });

    const revive = await post(`/api/admin/projects/${mine}/revive`, { features: [feature] });
    const remove = await post(`/api/admin/projects/${mine}/delete`, { features: [feature] });

    expect([revive.status, remove.status]).toEqual([403, 403]);
    expect((await post('/api/admin/features/validate', { name: feature })).body.message).toBe('An archived flag with that name already exists');
  });

  it.each(['revive', 'delete'])('refuses a %s body without a features list with 400 naming features', async (action) => {
    const res = await post(`/api/admin/projects/default/${action}`, { names: [] });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('features');
  });
});

describe('POST …/strategies/set-sort-order', () => {
  it("orders a feature's strategies as given", async () => {
    const feature = await steps.createFeature();
    const first = (await steps.addStrategy('default', feature, 'development', rollout(feature))).body.id;
    const second = (await steps.addStrategy('default', feature, 'development', rollout(feature))).body.id;

    const res = await post(`${steps.base('default', feature)}/environments/development/strategies/set-sort-order`, [
      { id: second, sortOrder: 0 }, { id: first, sortOrder: 1 },
    ]);
    const list = await call({ method: 'GET', path: `${steps.base('default', feature)}/environments/development/strategies`, token });

    expect(res.status).toBe(200);
    expect(list.body.map((s: { id: string }) => s.id)).toEqual([second, first]);
  });

  it('answers 404 for a strategy the environment does not have, and 400 naming sortOrder for a bad one', async () => {
    const feature = await steps.createFeature();
    const path = `${steps.base('default', feature)}/environments/development/strategies/set-sort-order`;

    const unknown = await post(path, [{ id: 'nope', sortOrder: 1 }]);
    const bad = await post(path, [{ id: 'nope', sortOrder: 'first' }]);

    expect(unknown.status).toBe(404);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('sortOrder');
  });
});

describe('PUT …/variants-batch', () => {
  const variantsPath = (feature: string, environment: string) => `${steps.base('default', feature)}/environments/${environment}/variants`;

  it('gives each named environment the same variants, weights spread, and leaves the others', async () => {
    const feature = await steps.createFeature();
    const blue = { name: 'blue', weightType: 'variable', weight: 0, stickiness: 'default' };

    const res = await call({
      method: 'PUT', path: `${steps.base('default', feature)}/variants-batch`, token,
      body: { variants: [blue, { ...blue, name: 'green' }], environments: ['production'] },
    });
    const production = await call({ method: 'GET', path: variantsPath(feature, 'production'), token });
    const development = await call({ method: 'GET', path: variantsPath(feature, 'development'), token });

    expect(res.status).toBe(200);
    expect(res.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([['blue', 500], ['green', 500]]);
    expect(production.body.variants).toEqual(res.body.variants);
    expect(development.body.variants).toEqual([]);
  });

  it('refuses no environments with 400 naming environments, and an environment the project lacks with 404', async () => {
    const feature = await steps.createFeature();
    const path = `${steps.base('default', feature)}/variants-batch`;

    const none = await call({ method: 'PUT', path, token, body: { variants: [], environments: [] } });
    const unknown = await call({ method: 'PUT', path, token, body: { variants: [], environments: ['nowhere-env'] } });

    expect(none.status).toBe(400);
    expect(none.body.message).toContain('environments');
    expect(unknown.status).toBe(404);
  });
});

describe("creating a feature with the create dialog's tags", () => {
  it('tags the new feature once each and lists the tags among those in use', async () => {
    const name = unique('tagged');
    const value = unique('v');

    const res = await post('/api/admin/projects/default/features', {
      name, type: 'release', tags: [{ type: 'simple', value }, { type: 'simple', value }],
    });
    const tags = await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token });
    const inUse = await call({ method: 'GET', path: '/api/admin/tags/simple', token });

    expect(res.status).toBe(201);
    expect(tags.body.tags).toEqual([{ type: 'simple', value }]);
    expect(inUse.body.tags).toContainEqual({ type: 'simple', value });
  });

  it('refuses a tag of a type that does not exist with 400 naming it, and creates nothing', async () => {
    const name = unique('tagged');

    const res = await post('/api/admin/projects/default/features', { name, tags: [{ type: 'simple', value: 'ok' }, { type: 'no-such-type', value: 'x1' }] });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^tags\.1\.type/);
    expect((await post('/api/admin/features/validate', { name })).status).toBe(200);
  });
});
