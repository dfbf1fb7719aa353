import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { projectSteps, storeFeature } from '../support/projects.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = projectSteps(call, token);

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

describe('POST /api/admin/projects', () => {
  it('answers 201 with the project, its defaults and every enabled environment', async () => {
    const id = unique('shop');

    const res = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: 'Shop' } });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`projects/${id}`);
    expect(res.body).toEqual({
      id, name: 'Shop', description: null, mode: 'open', defaultStickiness: 'default', featureLimit: null,
      featureNaming: { pattern: null, example: null, description: null },
      environments: expect.arrayContaining(['development', 'production']), createdAt: expect.any(String),
    });
  });

  it('keeps the settings it is given, with only the environments named', async () => {
    const id = unique('tuned');
    const body = {
      id, name: 'Tuned', description: 'Fine-tuned', mode: 'protected', defaultStickiness: 'sessionId', featureLimit: 3,
      featureNaming: { pattern: 'tuned-[a-z]+', example: 'tuned-search', description: 'tuned- then letters' },
      environments: ['production'],
    };

    const res = await call({ method: 'POST', path: '/api/admin/projects', token, body });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ...body, environments: ['production'] });
  });

  it('refuses a taken id with 409 NameExistsError, default included', async () => {
    const id = await steps.createProject();

    const again = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: 'Again' } });
    const builtIn = await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: 'default', name: 'Mine' } });

    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ name: 'NameExistsError', message: `A project with the id ${id} already exists` });
    expect(builtIn.status).toBe(409);
  });

  it('lets exactly one of several concurrent creates of one id win', async () => {
    const id = unique('race');

    const results = await Promise.all([1, 2, 3].map((n) => call({ method: 'POST', path: '/api/admin/projects', token, body: { id, name: `Racer ${n}` } })));

    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((res) => res.status === 409).map((res) => res.body.name)).toEqual(['NameExistsError', 'NameExistsError']);
    // The stored project is the winner's, whole: its name, not a loser's.
    const winner = results.find((res) => res.status === 201)!;
    expect((await call({ method: 'GET', path: `/api/admin/projects/${id}`, token })).body).toMatchObject({ name: winner.body.name });
    const listed = await call({ method: 'GET', path: '/api/admin/projects', token });
    expect(listed.body.projects.filter((project: { id: string }) => project.id === id)).toHaveLength(1);
  });

  it.each([
    [{ id: 'has space', name: 'x' }, /^id: /],
    [{ id: unique('p') }, /^name: /],
    [{ id: unique('p'), name: 'x', featureLimit: -1 }, /^featureLimit: /],
    [{ id: unique('p'), name: 'x', featureLimit: 1.5 }, /^featureLimit: /],
    [{ id: unique('p'), name: 'x', mode: 'secret' }, /^mode: /],
    [{ id: unique('p'), name: 'x', featureNaming: { pattern: '[a-z' } }, /^featureNaming\.pattern: /],
    [{ id: unique('p'), name: 'x', featureNaming: { pattern: '[a-z]+', example: 'ABC' } }, /^featureNaming\.example: /],
    [{ id: unique('p'), name: 'x', featureNaming: { pattern: 'a\\sb' } }, /^featureNaming\.pattern: .*whitespace/],
    [{ id: unique('p'), name: 'x', environments: ['nowhere'] }, /^environments: .*nowhere/],
    [{ id: unique('p'), name: 'x', environments: [] }, /^environments: /],
  ])('answers 400 ValidationError naming the property for %j', async (body, message) => {
    const res = await call({ method: 'POST', path: '/api/admin/projects', token, body });

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /api/admin/projects', () => {
  it('lists projects as {version: 1, projects} with counts, health and technical debt, no members, and no favourite for a token', async () => {
    const id = await steps.createProject({ description: 'Listed' });

    const res = await call({ method: 'GET', path: '/api/admin/projects', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.projects.find((project: { id: string }) => project.id === id)).toEqual({
      id, name: `Project ${id}`, description: 'Listed', health: 100, technicalDebt: 0, featureCount: 0, memberCount: 0,
      createdAt: expect.any(String), updatedAt: null, favorite: false, mode: 'open', defaultStickiness: 'default', featureLimit: null,
    });
    expect(res.body.projects.map((project: { id: string }) => project.id)).toContain('default');
  });

  it('counts active features and computes health from stale and potentially stale ones', async () => {
    const id = await steps.createProject();
    await storeFeature(services, id, { stale: true });
    await storeFeature(services, id, { type: 'operational', createdAt: daysAgo(8) });
    await storeFeature(services, id);
    await storeFeature(services, id);
    await storeFeature(services, id, { archived: true, archivedAt: daysAgo(1) });

    const res = await call({ method: 'GET', path: '/api/admin/projects', token });

    expect(res.body.projects.find((project: { id: string }) => project.id === id)).toMatchObject({ featureCount: 4, health: 50 });
  });
});

describe('E8 GET /api/admin/projects/{projectId}', () => {
  it('shows the seeded default project as Unleash does', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/projects/default', token });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: 1, name: 'Default', description: 'Default project', mode: 'open', defaultStickiness: 'default',
      featureLimit: null, featureNaming: { pattern: null, example: null, description: null }, members: 0, favorite: false,
    });
    expect(res.body.environments.slice(0, 2)).toEqual([{ environment: 'development' }, { environment: 'production' }]);
  });

  it('lists the active features of the project only, as Feature objects', async () => {
    const id = await steps.createProject();
    const active = await storeFeature(services, id, { stale: true });
    await storeFeature(services, id, { archived: true, archivedAt: daysAgo(1) });
    await storeFeature(services, 'default');

    const res = await call({ method: 'GET', path: `/api/admin/projects/${id}`, token });

    expect(res.body.features.map((feature: { name: string }) => feature.name)).toEqual([active.name]);
    expect(res.body.features[0]).toMatchObject({
      name: active.name, project: id, stale: true, archived: false, favorite: false,
      environments: [expect.objectContaining({ name: 'development', enabled: false }), expect.objectContaining({ name: 'production' })],
    });
    expect(res.body.health).toBe(0);
  });

  it('lists the archived features instead with ?archived=true', async () => {
    const id = await steps.createProject();
    await storeFeature(services, id);
    const archived = await storeFeature(services, id, { archived: true, archivedAt: daysAgo(1) });

    const res = await call({ method: 'GET', path: `/api/admin/projects/${id}?archived=true`, token });

    expect(res.status).toBe(200);
    expect(res.body.features.map((feature: { name: string }) => feature.name)).toEqual([archived.name]);
    expect(res.body.features[0].archived).toBe(true);
  });

  it('answers 404 NotFoundError for an unknown project', async () => {
    const res = await call({ method: 'GET', path: `/api/admin/projects/${unique('ghost')}`, token });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('No project found') });
  });
});

describe('PUT /api/admin/projects/{projectId}', () => {
  it('replaces the settings; what the body leaves out returns to its default', async () => {
    const id = await steps.createProject({ description: 'Before', mode: 'private', featureLimit: 9 });
    await storeFeature(services, id);

    const res = await call({
      method: 'PUT', path: `/api/admin/projects/${id}`, token,
      body: { name: 'After', featureNaming: { pattern: 'x-.+', example: 'x-1' } },
    });
    const overview = await call({ method: 'GET', path: `/api/admin/projects/${id}`, token });
    const listed = await call({ method: 'GET', path: '/api/admin/projects', token });

    expect(res.status).toBe(200);
    expect(overview.body).toMatchObject({
      name: 'After', description: null, mode: 'open', featureLimit: null,
      featureNaming: { pattern: 'x-.+', example: 'x-1', description: null }, updatedAt: expect.any(String),
    });
    expect(listed.body.projects.find((project: { id: string }) => project.id === id).featureCount).toBe(1);
  });

  it('answers 404 for an unknown project and 400 for a bad naming pattern', async () => {
    const id = await steps.createProject();
    const ghost = unique('ghost');
    const before = (await call({ method: 'GET', path: `/api/admin/projects/${id}`, token })).body;

    const unknown = await call({ method: 'PUT', path: `/api/admin/projects/${ghost}`, token, body: { name: 'x' } });
    const bad = await call({ method: 'PUT', path: `/api/admin/projects/${id}`, token, body: { name: 'x', featureNaming: { pattern: '(' } } });

    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect(unknown.body.message).toContain(ghost);
    expect((await call({ method: 'GET', path: `/api/admin/projects/${ghost}`, token })).status).toBe(404);
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
    expect(bad.body.message).toMatch(/^featureNaming\.pattern: /);
    // Neither the name nor the pattern was written.
    expect((await call({ method: 'GET', path: `/api/admin/projects/${id}`, token })).body).toEqual(before);
  });
});

describe('DELETE /api/admin/projects/{projectId}', () => {
  it('deletes a project with no features', async () => {
    const id = await steps.createProject();

    const res = await call({ method: 'DELETE', path: `/api/admin/projects/${id}`, token });
    const after = await call({ method: 'GET', path: `/api/admin/projects/${id}`, token });

    expect(res.status).toBe(200);
    expect(after.status).toBe(404);
    expect(after.body.name).toBe('NotFoundError');
    const listed = await call({ method: 'GET', path: '/api/admin/projects', token });
    expect(listed.body.projects.map((project: { id: string }) => project.id)).not.toContain(id);
  });

  it('refuses the default project', async () => {
    const res = await call({ method: 'DELETE', path: '/api/admin/projects/default', token });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/default project cannot be deleted/);
  });

  it('refuses a project that still has features, archived ones included', async () => {
    const withActive = await steps.createProject();
    await storeFeature(services, withActive);
    const withArchived = await steps.createProject();
    await storeFeature(services, withArchived, { archived: true, archivedAt: daysAgo(1) });

    const active = await call({ method: 'DELETE', path: `/api/admin/projects/${withActive}`, token });
    const archived = await call({ method: 'DELETE', path: `/api/admin/projects/${withArchived}`, token });

    expect(active.status).toBe(400);
    expect(active.body.message).toMatch(/still has 1 feature/);
    expect(archived.status).toBe(400);
    expect(archived.body.message).toMatch(/archived ones included/);
  });

  it('answers 404 for an unknown project', async () => {
    const ghost = unique('ghost');
    const res = await call({ method: 'DELETE', path: `/api/admin/projects/${ghost}`, token });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(ghost);
  });

  it('never lets a feature created during the delete end up without a project', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = await steps.createProject();

      const [deleted, created] = await Promise.allSettled([
        call({ method: 'DELETE', path: `/api/admin/projects/${id}`, token }),
        storeFeature(services, id),
      ]);

      const projectGone = deleted.status === 'fulfilled' && deleted.value.status === 200;
      const featureStored = created.status === 'fulfilled';
      expect(projectGone && featureStored).toBe(false);
      expect(projectGone || featureStored).toBe(true);
    }
  });
});
