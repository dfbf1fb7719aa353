import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { projectSteps } from '../support/projects.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);
const projects = projectSteps(call, token);
const post = (path: string, body: unknown) => call({ method: 'POST', path, token, body });

describe('POST /api/admin/features/validate', () => {
  it('answers 200 with no body for a free, URL-friendly name', async () => {
    const res = await post('/api/admin/features/validate', { name: unique('free') });

    expect(res.status).toBe(200);
    expect(res.text).toBe('');
  });

  it("answers 409 NameExistsError with Unleash's words for a taken name, and another for an archived one", async () => {
    const active = await steps.createFeature();
    const archived = await steps.createFeature();
    await call({ method: 'DELETE', path: steps.base('default', archived), token });

    const taken = await post('/api/admin/features/validate', { name: active });
    const gone = await post('/api/admin/features/validate', { name: archived, projectId: 'default' });

    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ name: 'NameExistsError', message: 'A flag with that name already exists' });
    expect(gone.status).toBe(409);
    expect(gone.body.message).toBe('An archived flag with that name already exists');
  });

  it('creating a taken name answers the same 409 as validating it', async () => {
    const name = await steps.createFeature();

    const res = await post('/api/admin/projects/default/features', { name });

    expect(res.status).toBe(409);
    expect(res.body.message).toBe('A flag with that name already exists');
  });

  it.each([
    [{ name: 'not a valid name!' }, 'name'],
    [{}, 'name'],
    [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'ok-name', projectId: 42 }, 'projectId'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await post('/api/admin/features/validate', body);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("applies the named project's naming pattern, and only when a project is named", async () => {
    const project = await projects.createProject({ featureNaming: { pattern: 'web-.+', example: 'web-login' } });

    const wrong = await post('/api/admin/features/validate', { name: unique('api'), projectId: project });
    const right = await post('/api/admin/features/validate', { name: unique('web'), projectId: project });
    const noProject = await post('/api/admin/features/validate', { name: unique('api') });

    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toContain('name');
    expect(wrong.body.message).toContain('web-.+');
    expect(right.status).toBe(200);
    expect(noProject.status).toBe(200);
  });

  it('answers 404 for a project that does not exist', async () => {
    const nowhere = unique('nowhere');
    const res = await post('/api/admin/features/validate', { name: unique('free'), projectId: nowhere });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    expect(res.body.message).toContain(nowhere);
  });
});

describe('POST /api/admin/constraints/validate', () => {
  it("answers 204 for the admin UI's new constraint: an empty list and an empty value", async () => {
    const res = await post('/api/admin/constraints/validate', {
      contextName: 'userId', operator: 'IN', values: [], value: '', caseInsensitive: false, inverted: false,
    });

    expect(res.status).toBe(204);
    // No error body: the constraint was taken as it is.
    expect(res.text).toBe('');
    expect(res.body).toBeUndefined();
  });

  it('answers 204 for a constraint a strategy could save', async () => {
    const res = await post('/api/admin/constraints/validate', { contextName: 'userId', operator: 'IN', values: ['a', 'b'] });

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it.each([
    [{ contextName: 'appVersion', operator: 'SEMVER_GT', value: 'v2' }, 'value'],
    [{ contextName: 'userId', operator: 'NUM_EQ', value: 'ten' }, 'value'],
    [{ contextName: 'userId', operator: 'LIKE', values: [] }, 'operator'],
    [{ operator: 'IN', values: [] }, 'contextName'],
    [{ contextName: 'userId', operator: 'IN', value: 'one' }, 'values'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await post('/api/admin/constraints/validate', body);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it('refuses a context field that does not exist, and values outside its legal values, as a strategy save would', async () => {
    const field = unique('ctx');
    await call({ method: 'POST', path: '/api/admin/context', token, body: { name: field, legalValues: [{ value: 'eu' }, { value: 'us' }] } });

    const unknown = await post('/api/admin/constraints/validate', { contextName: unique('nofield'), operator: 'IN', values: ['x'] });
    const illegal = await post('/api/admin/constraints/validate', { contextName: field, operator: 'IN', values: ['eu', 'mars'] });
    const legal = await post('/api/admin/constraints/validate', { contextName: field, operator: 'IN', values: ['eu'] });

    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/^contextName/);
    expect(illegal.status).toBe(400);
    expect(illegal.body.message).toMatch(/^values: mars/);
    expect(legal.status).toBe(204);
  });
});

describe('POST /api/admin/projects/{projectId}/archive/validate', () => {
  it('names the parents whose children are left out, and says dependencies go', async () => {
    const parent = await steps.createFeature();
    const child = await steps.createFeature();
    const loner = await steps.createFeature();
    await post(`${steps.base('default', child)}/dependencies`, { feature: parent });

    const parentAlone = await post('/api/admin/projects/default/archive/validate', { features: [parent, loner] });
    const both = await post('/api/admin/projects/default/archive/validate', { features: [parent, child] });
    const neither = await post('/api/admin/projects/default/archive/validate', { features: [loner, unique('missing')] });

    expect(parentAlone.body).toEqual({ hasDeletedDependencies: true, parentsWithChildFeatures: [parent] });
    expect(both.body).toEqual({ hasDeletedDependencies: true, parentsWithChildFeatures: [] });
    expect(neither.status).toBe(200);
    expect(neither.body).toEqual({ hasDeletedDependencies: false, parentsWithChildFeatures: [] });
  });

  it('refuses a body without a features list with 400 naming features', async () => {
    const res = await post('/api/admin/projects/default/archive/validate', { feature: 'x' });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('features');
  });
});

describe('POST /api/admin/segments/validate', () => {
  it('answers 204 for a free name and 409 NameExistsError for a taken one', async () => {
    const name = unique('seg');
    await projects.createSegment({ name });

    const free = await post('/api/admin/segments/validate', { name: unique('seg') });
    const taken = await post('/api/admin/segments/validate', { name });

    expect(free.status).toBe(204);
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ name: 'NameExistsError', message: 'Segment name already exists' });
  });

  it('refuses an empty name with 400 naming name', async () => {
    const res = await post('/api/admin/segments/validate', { name: ' ' });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('name');
  });
});

describe('POST /api/admin/tag-types/validate', () => {
  it('answers 200 {valid, tagType} for a free name, 409 NameExistsError for a taken one, 400 naming name for a bad one', async () => {
    const name = unique('team');
    await post('/api/admin/tag-types', { name });

    const free = await post('/api/admin/tag-types/validate', { name: `${name}-x`, description: 'Owning team' });
    const taken = await post('/api/admin/tag-types/validate', { name });
    const bad = await post('/api/admin/tag-types/validate', { name: 'no spaces' });

    expect(free.status).toBe(200);
    expect(free.body).toEqual({ valid: true, tagType: { name: `${name}-x`, description: 'Owning team', icon: null } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ name: 'NameExistsError', message: `There already exists a tag-type with the name ${name}` });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('name');
  });
});
