import { describe, expect, it } from 'vitest';
import { adminSession, apiClient } from '../support/api.js';
import { freshServices, projectSteps } from '../support/projects.js';
import { adminToken, unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = projectSteps(call, token);

const overviewEnvironments = async (project: string) =>
  (await call({ method: 'GET', path: `/api/admin/projects/${project}`, token })).body.environments as Array<{ environment: string; defaultStrategy?: unknown }>;

describe('environments', () => {
  it('lists {version: 1, environments} by sort order, the seeded ones first', async () => {
    const late = await steps.createEnvironment({ sortOrder: 150 });

    const res = await call({ method: 'GET', path: '/api/admin/environments', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const names: string[] = res.body.environments.map((environment: { name: string }) => environment.name);
    expect(names.indexOf('development')).toBeLessThan(names.indexOf(late));
    expect(names.indexOf(late)).toBeLessThan(names.indexOf('production'));
    expect(res.body.environments[names.indexOf('development')]).toEqual({
      name: 'development', type: 'development', enabled: true, protected: false, sortOrder: 100, createdAt: expect.any(String),
    });
  });

  it('creates an environment with 201, enabled and last by default, which new projects then get', async () => {
    const own = await freshServices();
    await own.firstStart.ensure();
    const ownCall = apiClient(own);
    const ownToken = await adminToken(own);

    const res = await ownCall({ method: 'POST', path: '/api/admin/environments', token: ownToken, body: { name: 'staging', type: 'staging' } });
    const read = await ownCall({ method: 'GET', path: '/api/admin/environments/staging', token: ownToken });
    const project = await ownCall({ method: 'POST', path: '/api/admin/projects', token: ownToken, body: { id: 'p', name: 'P' } });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('environments/staging');
    expect(res.body).toEqual({
      name: 'staging', type: 'staging', enabled: true, protected: false, sortOrder: 9999, createdAt: expect.any(String),
    });
    expect(read.body).toEqual(res.body);
    expect(project.body.environments.sort()).toEqual(['development', 'production', 'staging']);
  });

  it('leaves a disabled environment out of new projects', async () => {
    const disabled = await steps.createEnvironment({ enabled: false });

    const res = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: unique('p'), name: 'P' } });

    expect(res.body.environments).not.toContain(disabled);
    expect(res.body.environments).toEqual(expect.arrayContaining(['development', 'production']));
  });

  it('refuses a taken name with 409, a bad name or a missing type with 400, and an unknown one with 404', async () => {
    const taken = await call({ method: 'POST', path: '/api/admin/environments', token, body: { name: 'production', type: 'production' } });
    const badName = await call({ method: 'POST', path: '/api/admin/environments', token, body: { name: 'a/b', type: 't' } });
    const noType = await call({ method: 'POST', path: '/api/admin/environments', token, body: { name: unique('e') } });
    const unknown = await call({ method: 'GET', path: `/api/admin/environments/${unique('ghost')}`, token });

    expect(taken.status).toBe(409);
    expect(badName.status).toBe(400);
    expect(badName.body.message).toMatch(/^name: /);
    expect(noType.body.message).toMatch(/^type: /);
    expect(unknown.status).toBe(404);
  });

  it('can be named by API tokens and new projects once created', async () => {
    const environment = await steps.createEnvironment();
    const project = await steps.createProject({ environments: [environment] });

    const res = await call({
      method: 'POST', path: '/api/admin/api-tokens', token, body: { tokenName: 'sdk', type: 'client', environment, project },
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ environment, projects: [project] });
  });
});

describe('a project\'s environments', () => {
  it('adds an environment with 200, shown in sort order, and moves the SDK revision', async () => {
    const environment = await steps.createEnvironment({ sortOrder: 150 });
    const project = await steps.createProject();
    const before = await services.revisions.current();

    const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/environments`, token, body: { environment } });

    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await overviewEnvironments(project)).map((entry) => entry.environment)).toEqual(['development', environment, 'production']);
    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('answers 409 when already added, 404 for an unknown project or environment', async () => {
    const project = await steps.createProject();
    const before = await overviewEnvironments(project);
    const ghostProject = unique('ghost');
    const ghostEnvironment = unique('ghost');

    const again = await call({ method: 'POST', path: `/api/admin/projects/${project}/environments`, token, body: { environment: 'development' } });
    const noProject = await call({
      method: 'POST', path: `/api/admin/projects/${ghostProject}/environments`, token, body: { environment: 'development' },
    });
    const noEnvironment = await call({
      method: 'POST', path: `/api/admin/projects/${project}/environments`, token, body: { environment: ghostEnvironment },
    });

    expect(again.status).toBe(409);
    expect(again.body.name).toBe('NameExistsError');
    expect(again.body.message).toContain(`The environment development is already added to the project ${project}`);
    expect(noProject.status).toBe(404);
    expect(noProject.body.name).toBe('NotFoundError');
    expect(noProject.body.message).toContain(ghostProject);
    expect(noEnvironment.status).toBe(404);
    expect(noEnvironment.body.name).toBe('NotFoundError');
    expect(noEnvironment.body.message).toContain(ghostEnvironment);
    // None of the three changed the project's environments, nor made the unknown project.
    expect(await overviewEnvironments(project)).toEqual(before);
    expect((await call({ method: 'GET', path: `/api/admin/projects/${ghostProject}`, token })).status).toBe(404);
  });

  it('lets one of two concurrent adds of the same environment win', async () => {
    const environment = await steps.createEnvironment();
    const project = await steps.createProject();

    const results = await Promise.all([1, 2].map(() =>
      call({ method: 'POST', path: `/api/admin/projects/${project}/environments`, token, body: { environment } })));

    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(results.find((res) => res.status === 409)?.body.name).toBe('NameExistsError');
    // Added once, not twice.
    expect((await overviewEnvironments(project)).filter((entry) => entry.environment === environment)).toHaveLength(1);
  });

  it('removes an environment with 200 and moves the SDK revision', async () => {
    const project = await steps.createProject();
    const before = await services.revisions.current();

    const res = await call({ method: 'DELETE', path: `/api/admin/projects/${project}/environments/production`, token });

    expect(res.status).toBe(200);
    expect((await overviewEnvironments(project)).map((entry) => entry.environment)).toEqual(['development']);
    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('never removes the last environment, and answers 404 for one not added or an unknown project', async () => {
    const project = await steps.createProject({ environments: ['development'] });

    const last = await call({ method: 'DELETE', path: `/api/admin/projects/${project}/environments/development`, token });
    const notAdded = await call({ method: 'DELETE', path: `/api/admin/projects/${project}/environments/production`, token });
    const noProject = await call({ method: 'DELETE', path: `/api/admin/projects/${unique('ghost')}/environments/production`, token });

    expect(last.status).toBe(400);
    expect(last.body).toMatchObject({ name: 'ValidationError', message: 'You must always have one active environment' });
    expect(notAdded.status).toBe(404);
    expect(noProject.status).toBe(404);
  });

  it('keeps one environment when the last two are removed at the same time', async () => {
    const project = await steps.createProject({ environments: ['development', 'production'] });

    const results = await Promise.all(['development', 'production'].map((environment) =>
      call({ method: 'DELETE', path: `/api/admin/projects/${project}/environments/${environment}`, token })));

    expect(results.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(await overviewEnvironments(project)).toHaveLength(1);
  });
});

describe('a project\'s default strategy per environment', () => {
  const strategy = {
    name: 'flexibleRollout',
    constraints: [{ contextName: 'appName', operator: 'IN', values: ['shop'] }],
    parameters: { rollout: 50, stickiness: 'default', groupId: 'g' },
  };

  it('stores it with 200, answers it, and shows it in the overview', async () => {
    const project = await steps.createProject();

    const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/environments/production/default-strategy`, token, body: strategy });

    const expected = {
      name: 'flexibleRollout', title: null,
      constraints: [{ contextName: 'appName', operator: 'IN', values: ['shop'], caseInsensitive: false, inverted: false }],
      parameters: { rollout: '50', stickiness: 'default', groupId: 'g' },
    };
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected);
    expect(await overviewEnvironments(project)).toEqual([{ environment: 'development' }, { environment: 'production', defaultStrategy: expected }]);
    expect((await services.projects.getProject(project)).defaultStrategies.production).toMatchObject({ name: 'flexibleRollout' });
  });

  it('forgets it when the environment leaves the project', async () => {
    const project = await steps.createProject();
    await call({ method: 'POST', path: `/api/admin/projects/${project}/environments/production/default-strategy`, token, body: strategy });

    await call({ method: 'DELETE', path: `/api/admin/projects/${project}/environments/production`, token });
    await call({ method: 'POST', path: `/api/admin/projects/${project}/environments`, token, body: { environment: 'production' } });

    expect(await overviewEnvironments(project)).toEqual([{ environment: 'development' }, { environment: 'production' }]);
  });

  it('answers 400 for an unknown strategy type, a bad constraint or an environment not in the project; 404 for unknown ones', async () => {
    const project = await steps.createProject({ environments: ['development'] });
    const path = (environment: string, id = project) => `/api/admin/projects/${id}/environments/${environment}/default-strategy`;
    const unknownType = `nope-${unique('t')}`;

    const badType = await call({ method: 'POST', path: path('development'), token, body: { name: unknownType } });
    const badConstraint = await call({
      method: 'POST', path: path('development'), token, body: { name: 'default', constraints: [{ contextName: 'a', operator: 'NUM_GT', value: 'x' }] },
    });
    const notAdded = await call({ method: 'POST', path: path('production'), token, body: { name: 'default' } });
    const noEnvironment = await call({ method: 'POST', path: path(unique('ghost')), token, body: { name: 'default' } });
    const noProject = await call({ method: 'POST', path: path('development', unique('ghost')), token, body: { name: 'default' } });

    expect(badType.status).toBe(400);
    expect(badType.body.message).toContain(`Could not find strategy type with name ${unknownType}`);
    expect(badConstraint.status).toBe(400);
    expect(badConstraint.body.message).toMatch(/^constraints\.0\.value: /);
    expect(notAdded.status).toBe(400);
    expect(noEnvironment.status).toBe(404);
    expect(noProject.status).toBe(404);
  });
});
