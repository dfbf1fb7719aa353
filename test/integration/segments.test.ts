import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { projectSteps, storeFeature, strategyUsing } from '../support/projects.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = projectSteps(call, token);

const beta = { contextName: 'userId', operator: 'IN', values: ['u-1', 'u-2'] };
const newSegment = (overrides: Record<string, unknown> = {}) => ({ name: unique('beta'), description: 'Beta users', constraints: [beta], ...overrides });

/** A feature in `project` whose development strategy uses the segments. */
const useSegments = (project: string, segments: number[]) =>
  storeFeature(services, project, { environments: { development: { enabled: true, strategies: [strategyUsing(segments)], variants: [] } } });

describe('POST /api/admin/segments', () => {
  it('answers 201 with the segment, a numeric id, constraint defaults and a location header', async () => {
    const body = newSegment();

    const res = await call({ method: 'POST', path: '/api/admin/segments', token, body });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`segments/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number), name: body.name, description: 'Beta users', project: null,
      constraints: [{ ...beta, caseInsensitive: false, inverted: false }],
      createdAt: expect.any(String), createdBy: expect.stringMatching(/^test-admin-/),
    });
  });

  it('gives each segment its own id, also under concurrent creates', async () => {
    const results = await Promise.all([1, 2, 3].map(() => call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment() })));

    const ids = results.map((res) => res.body.id as number);
    expect(new Set(ids).size).toBe(3);
  });

  it('moves the SDK revision, since SDKs receive segments', async () => {
    const before = await services.revisions.current();

    await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment() });

    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('refuses a taken name with 409, and lets one of several concurrent creates of a name win', async () => {
    const name = unique('taken');
    await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ name }) });
    const race = unique('race');

    const again = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ name }) });
    const results = await Promise.all([1, 2, 3].map(() => call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ name: race }) })));

    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ name: 'NameExistsError', message: 'Segment name already exists' });
    expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ name: '' }, /^name: /],
    [{ constraints: undefined }, /^constraints: /],
    [{ constraints: [{ contextName: 'version', operator: 'SEMVER_GT', value: 'v1' }] }, /^constraints\.0\.value: /],
    [{ constraints: [beta, { contextName: 'userId', operator: 'STR_CONTAINS', value: 'x' }] }, /^constraints\.1\.values: /],
    [{ project: 'ghost-project' }, /^project: /],
  ])('answers 400 naming the property for %j', async (overrides, message) => {
    const res = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment(overrides) });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('refuses more than 1000 values across all constraints', async () => {
    const values = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`);
    const constraints = [
      { contextName: 'userId', operator: 'IN', values: values(600, 'a') },
      { contextName: 'userId', operator: 'NOT_IN', values: values(401, 'b') },
    ];

    const tooMany = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ constraints }) });
    const atLimit = await call({
      method: 'POST', path: '/api/admin/segments', token, body: newSegment({ constraints: [constraints[0], { ...constraints[1], values: values(400, 'b') }] }),
    });

    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^constraints: .*at most 1000 values/);
    expect(atLimit.status).toBe(201);
  });

  it('scopes a segment to an existing project', async () => {
    const project = await steps.createProject();

    const res = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ project }) });

    expect(res.status).toBe(201);
    expect(res.body.project).toBe(project);
  });
});

describe('reading segments', () => {
  it('lists {segments} with how many features and projects use each', async () => {
    const id = await steps.createSegment();
    const unused = await steps.createSegment();
    const project = await steps.createProject();
    await useSegments(project, [id]);
    await useSegments('default', [id]);

    const res = await call({ method: 'GET', path: '/api/admin/segments', token });

    expect(res.status).toBe(200);
    const find = (wanted: number) => res.body.segments.find((segment: { id: number }) => segment.id === wanted);
    expect(find(id)).toMatchObject({ usedInFeatures: 2, usedInProjects: 2 });
    expect(find(unused)).toMatchObject({ usedInFeatures: 0, usedInProjects: 0 });
  });

  it('gets one by id; 404 for an unknown id and 400 for one that is not a number', async () => {
    const id = await steps.createSegment();

    const found = await call({ method: 'GET', path: `/api/admin/segments/${id}`, token });
    const unknown = await call({ method: 'GET', path: '/api/admin/segments/999999999', token });
    const notNumber = await call({ method: 'GET', path: '/api/admin/segments/beta', token });

    expect(found.status).toBe(200);
    expect(found.body.id).toBe(id);
    expect(unknown.status).toBe(404);
    expect(notNumber.status).toBe(400);
    expect(notNumber.body.message).toMatch(/^id: /);
  });
});

describe('PUT /api/admin/segments/{id}', () => {
  it('replaces the details with 204, keeps id and creation, and moves the SDK revision', async () => {
    const id = await steps.createSegment({ description: 'old' });
    const created = (await call({ method: 'GET', path: `/api/admin/segments/${id}`, token })).body;
    const before = await services.revisions.current();
    const name = unique('renamed');

    const res = await call({
      method: 'PUT', path: `/api/admin/segments/${id}`, token,
      body: { name, constraints: [{ contextName: 'appName', operator: 'STR_STARTS_WITH', values: ['shop'] }] },
    });
    const after = (await call({ method: 'GET', path: `/api/admin/segments/${id}`, token })).body;

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(after).toMatchObject({ id, name, description: null, project: null, createdAt: created.createdAt, createdBy: created.createdBy });
    expect(after.constraints[0]).toMatchObject({ operator: 'STR_STARTS_WITH', values: ['shop'] });
    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('frees the old name on rename and refuses a name another segment has', async () => {
    const oldName = unique('old');
    const id = await steps.createSegment({ name: oldName });
    const otherName = unique('other');
    await steps.createSegment({ name: otherName });

    const newName = unique('new');
    await call({ method: 'PUT', path: `/api/admin/segments/${id}`, token, body: newSegment({ name: newName }) });
    const reuse = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ name: oldName }) });
    const clash = await call({ method: 'PUT', path: `/api/admin/segments/${id}`, token, body: newSegment({ name: otherName }) });

    expect(reuse.status).toBe(201);
    expect(reuse.body).toMatchObject({ name: oldName });
    expect(reuse.body.id).not.toBe(id);
    expect(clash.status).toBe(409);
    expect(clash.body.name).toBe('NameExistsError');
    expect(clash.body.message).toBe('Segment name already exists');
    // The refused rename left the segment under its new name.
    expect((await call({ method: 'GET', path: `/api/admin/segments/${id}`, token })).body).toMatchObject({ id, name: newName });
  });

  it('answers 404 for an unknown segment', async () => {
    const res = await call({ method: 'PUT', path: '/api/admin/segments/999999998', token, body: newSegment() });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain('999999998');
    expect((await call({ method: 'GET', path: '/api/admin/segments/999999998', token })).status).toBe(404);
  });

  it('refuses to scope a segment to one project while strategies in another use it', async () => {
    const id = await steps.createSegment();
    const [mine, theirs] = [await steps.createProject(), await steps.createProject()];
    await useSegments(theirs, [id]);

    const res = await call({ method: 'PUT', path: `/api/admin/segments/${id}`, token, body: newSegment({ project: mine }) });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^project: .*other projects/);
  });
});

describe('DELETE /api/admin/segments/{id}', () => {
  it('deletes an unused segment with 204, frees its name and moves the SDK revision', async () => {
    const name = unique('gone');
    const id = await steps.createSegment({ name });
    const before = await services.revisions.current();

    const res = await call({ method: 'DELETE', path: `/api/admin/segments/${id}`, token });
    const after = await call({ method: 'GET', path: `/api/admin/segments/${id}`, token });
    const reuse = await call({ method: 'POST', path: '/api/admin/segments', token, body: newSegment({ name }) });

    expect(res.status).toBe(204);
    expect(after.status).toBe(404);
    expect(reuse.status).toBe(201);
    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('refuses with 409 while a strategy uses the segment, and deletes it once none does', async () => {
    const id = await steps.createSegment();
    const feature = await useSegments('default', [id]);

    const refused = await call({ method: 'DELETE', path: `/api/admin/segments/${id}`, token });
    await services.featureStore.commit({
      writes: [{ before: feature, after: { ...feature, environments: {}, version: feature.version + 1 } }],
    });
    const deleted = await call({ method: 'DELETE', path: `/api/admin/segments/${id}`, token });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ name: 'NameExistsError', message: 'Segment is in use by one or more strategies' });
    expect(deleted.status).toBe(204);
  });

  it('never leaves a strategy pointing at a segment deleted at the same moment', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = await steps.createSegment();

      const [deleted, used] = await Promise.allSettled([
        call({ method: 'DELETE', path: `/api/admin/segments/${id}`, token }),
        useSegments('default', [id]),
      ]);

      const segmentGone = deleted.status === 'fulfilled' && deleted.value.status === 204;
      const strategyStored = used.status === 'fulfilled';
      expect(segmentGone && strategyStored).toBe(false);
      expect(segmentGone || strategyStored).toBe(true);
    }
  });

  it('answers 404 for an unknown segment', async () => {
    const res = await call({ method: 'DELETE', path: '/api/admin/segments/999999997', token });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain('999999997');
  });
});
