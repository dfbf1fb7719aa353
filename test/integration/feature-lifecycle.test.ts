import { describe, expect, it } from 'vitest';
import { adminSession, resendWhileUnavailable } from '../support/api.js';
import { environment, featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

describe('creating a feature', () => {
  it('answers 201 with the Feature, off in every environment of the project, type release by default', async () => {
    const name = unique('create');

    const res = await call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name, description: 'd' } });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name, project: 'default', type: 'release', description: 'd', stale: false, archived: false,
      impressionData: false, enabled: false, children: [], dependencies: [], tags: [],
    });
    expect(res.body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect(environment(res.body, 'development')).toMatchObject({ enabled: false, strategies: [], hasStrategies: false });
  });

  it('moves the SDK revision', async () => {
    const before = await services.revisions.current();

    await steps.createFeature();

    expect(await services.revisions.current()).toBeGreaterThan(before);
  });

  it('refuses a taken name with 409, archived features included, and a name that is not URL-friendly with 400', async () => {
    const name = await steps.createFeature();
    const archived = await steps.createFeature();
    await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: [archived] } });

    const taken = await call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name } });
    const takenArchived = await call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name: archived } });
    const bad = await call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name: 'a b' } });

    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect(takenArchived.body.message).toContain('archived');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^name:/);
  });

  it('lets exactly one of several concurrent creates of a name win', async () => {
    const name = unique('race');

    const results = await Promise.all(
      [1, 2, 3, 4].map(() => call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name } })),
    );

    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.name)).toEqual(['NameExistsError', 'NameExistsError', 'NameExistsError']);
    // One feature of that name is stored, in the project the winner named.
    expect((await steps.getFeature('default', name)).body).toMatchObject({ name, project: 'default' });
    const listed = await call({ method: 'GET', path: '/api/admin/projects/default/features', token });
    expect(listed.body.features.filter((f: { name: string }) => f.name === name)).toHaveLength(1);
  });

  it('answers 404 for an unknown project', async () => {
    const project = unique('nope');
    const name = unique('f');
    const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(project);
    // No feature was stored under that name, in that project or the default one.
    expect((await steps.getFeature(project, name)).status).toBe(404);
    expect((await steps.getFeature('default', name)).status).toBe(404);
  });

  it("enforces the project's feature limit and naming pattern with a clear 400", async () => {
    const limited = await steps.createProject({ featureLimit: 1 });
    const named = await steps.createProject({ featureNaming: { pattern: 'team-[a-z]+', example: 'team-search', description: 'team prefix' } });
    await steps.createFeature(limited);

    const overLimit = await call({ method: 'POST', path: `/api/admin/projects/${limited}/features`, token, body: { name: unique('f') } });
    const badName = await call({ method: 'POST', path: `/api/admin/projects/${named}/features`, token, body: { name: unique('x') } });
    const goodName = await call({ method: 'POST', path: `/api/admin/projects/${named}/features`, token, body: { name: `team-${Date.now().toString(36).replace(/[0-9]/g, 'q')}` } });

    expect(overLimit.status).toBe(400);
    expect(overLimit.body.message).toContain('maximum number');
    expect(badName.status).toBe(400);
    expect(badName.body.message).toContain('team-[a-z]+');
    expect(goodName.status).toBe(201);
  });
});

describe('reading and listing', () => {
  it('answers 404 for a feature of another project, naming where it is', async () => {
    const other = await steps.createProject();
    const name = await steps.createFeature(other);

    const res = await steps.getFeature('default', name);

    expect(res.status).toBe(404);
    expect(res.body.message).toContain(`in project "${other}"`);
  });

  it('lists a project\'s features with namePrefix (case-insensitive) and tag filters', async () => {
    const project = await steps.createProject();
    const alpha = await steps.createFeature(project, unique('Alpha'));
    const beta = await steps.createFeature(project, unique('beta'));
    await call({ method: 'POST', path: `/api/admin/features/${beta}/tags`, token, body: { type: 'simple', value: 'backend' } });

    const all = await call({ method: 'GET', path: `/api/admin/projects/${project}/features`, token });
    const prefixed = await call({ method: 'GET', path: `/api/admin/projects/${project}/features?namePrefix=alpha`, token });
    const tagged = await call({ method: 'GET', path: `/api/admin/projects/${project}/features?tag=simple:backend`, token });

    expect(all.body.version).toBe(2);
    expect(all.body.features.map((f: { name: string }) => f.name)).toEqual([alpha, beta].sort());
    expect(all.body.features[0].environments[0]).toMatchObject({ name: 'development', hasStrategies: false, variantCount: 0 });
    expect(prefixed.body.features.map((f: { name: string }) => f.name)).toEqual([alpha]);
    expect(tagged.body.features.map((f: { name: string }) => f.name)).toEqual([beta]);
  });

  it('E15 lists active features of every project as {version, features}', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);

    const res = await call({ method: 'GET', path: '/api/admin/features', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.features.find((f: { name: string }) => f.name === name)).toMatchObject({ project });
  });
});

describe('changing metadata', () => {
  it('PUT replaces description, type, stale and impressionData, and refuses another name', async () => {
    const name = await steps.createFeature();

    const res = await call({
      method: 'PUT', path: steps.base('default', name), token,
      body: { description: 'new', type: 'kill-switch', stale: true, impressionData: true },
    });
    const renamed = await call({ method: 'PUT', path: steps.base('default', name), token, body: { name: 'other' } });

    expect(res.body).toMatchObject({ description: 'new', type: 'kill-switch', stale: true, impressionData: true });
    expect(renamed.status).toBe(400);
  });

  it('E9 applies a JSON Patch to the allowed fields, ignores name and project, and answers the Feature', async () => {
    const name = await steps.createFeature();

    const res = await call({
      method: 'PATCH', path: steps.base('default', name), token,
      body: [
        { op: 'replace', path: '/description', value: 'patched' },
        { op: 'replace', path: '/impressionData', value: true },
        { op: 'replace', path: '/name', value: 'renamed' },
      ],
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, description: 'patched', impressionData: true, project: 'default' });
    expect(res.body.environments).toHaveLength(2);
  });

  it.each([
    [[{ op: 'test', path: '/description', value: 'x' }], 400],
    [[{ op: 'remove', path: '/nowhere' }], 400],
    [[{ op: 'replace', path: '/stale', value: 'yes' }], 400],
    [[{ op: 'replace', path: '/archived', value: true }], 400],
    [[{ op: 'replace', path: '/variants', value: [] }], 403],
    [{ op: 'replace', path: '/description', value: 'x' }, 400],
  ])('E9 refuses %j with %i and changes nothing', async (patch, status) => {
    const name = await steps.createFeature('default', unique('patch'), { description: 'kept' });

    const res = await call({ method: 'PATCH', path: steps.base('default', name), token, body: patch });
    const after = await steps.getFeature('default', name);

    expect(res.status).toBe(status);
    expect(after.body.description).toBe('kept');
  });

  it('keeps every one of many concurrent changes (no lost update)', async () => {
    const name = await steps.createFeature();
    const values = Array.from({ length: 8 }, (_, i) => `tag-${i}`);

    // A change that ran out of time (503, as a Lambda past its budget answers on a loaded machine)
    // stored nothing, so sending it again must answer 201, never a conflict with a half-written tag.
    const results = await Promise.all(values.map((value) =>
      resendWhileUnavailable(() => call({ method: 'POST', path: `/api/admin/features/${name}/tags`, token, body: { value } }))));
    const tags = await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token });
    const events = await call({ method: 'GET', path: `/api/admin/events/${name}`, token });

    expect(results.map((r) => (r.status === 201 ? 201 : `${r.status} ${r.text}`))).toEqual(values.map(() => 201));
    expect(tags.body.tags.map((t: { value: string }) => t.value).sort()).toEqual(values);
    expect(events.body.events.filter((e: { type: string }) => e.type === 'feature-tagged')).toHaveLength(values.length);
  });
});
