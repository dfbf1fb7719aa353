import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/**
 * The context field pages of the 7.6.5 UI: the create page's name check, the list's usage counts
 * (the delete button is enabled only for a field no flag uses), and a project's own fields from
 * project settings.
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = testServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const createField = (name: string) => call({ method: 'POST', path: '/api/admin/context', token, body: { name } });
const listed = async (path: string, name: string) =>
  ((await call({ method: 'GET', path, token })).body as Array<{ name: string }>).find((field) => field.name === name) as Record<string, unknown> | undefined;
const constrainedOn = (contextName: string) => ({
  name: 'flexibleRollout', parameters: { rollout: '100' }, constraints: [{ contextName, operator: 'IN', values: ['a'] }],
});

describe('the name check of the create page', () => {
  it('answers 200 for a free name and 409 NameExistsError for a taken one, creating nothing', async () => {
    const free = unique('free');
    const taken = unique('taken');
    await createField(taken);

    const ok = await call({ method: 'POST', path: '/api/admin/context/validate', token, body: { name: free } });
    const clash = await call({ method: 'POST', path: '/api/admin/context/validate', token, body: { name: taken } });
    const bad = await call({ method: 'POST', path: '/api/admin/context/validate', token, body: {} });

    expect(ok.status).toBe(200);
    expect([clash.status, clash.body.name]).toEqual([409, 'NameExistsError']);
    expect([bad.status, bad.body.name]).toEqual([400, 'ValidationError']);
    expect((await call({ method: 'GET', path: `/api/admin/context/${free}`, token })).status).toBe(404);
  });
});

describe('usage counts and deleting', () => {
  it('counts the flags and projects whose strategies test the field, leaving archived flags out', async () => {
    const field = unique('tenant');
    await createField(field);
    const project = await steps.createProject();
    const [first, second, archived] = [await steps.createFeature(), await steps.createFeature(project), await steps.createFeature()];
    await steps.addStrategy('default', first, 'development', constrainedOn(field));
    await steps.addStrategy('default', first, 'production', constrainedOn(field));
    await steps.addStrategy(project, second, 'development', constrainedOn(field));
    await steps.addStrategy('default', archived, 'development', constrainedOn(field));
    await call({ method: 'DELETE', path: steps.base('default', archived), token });

    const item = await listed('/api/admin/context', field);

    expect(item).toMatchObject({ name: field, usedInFeatures: 2, usedInProjects: 2 });
    expect(await listed('/api/admin/context', 'userId')).toMatchObject({ usedInFeatures: expect.any(Number), usedInProjects: expect.any(Number) });
  });

  it('refuses to delete a field a flag uses (409) and deletes it once no flag does', async () => {
    const field = unique('plan');
    await createField(field);
    const flag = await steps.createFeature();
    const strategy = await steps.addStrategy('default', flag, 'development', constrainedOn(field));

    const refused = await call({ method: 'DELETE', path: `/api/admin/context/${field}`, token });

    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('in use');
    await call({ method: 'DELETE', path: `${steps.base('default', flag)}/environments/development/strategies/${strategy.body.id}`, token });
    expect((await call({ method: 'DELETE', path: `/api/admin/context/${field}`, token })).status).toBe(200);
    expect(await listed('/api/admin/context', field)).toBeUndefined();
  });
});

describe("a project's own context fields", () => {
  it("are created from project settings, listed with that project only, and with include=project in the instance's list", async () => {
    const project = await steps.createProject();
    const name = unique('region');

    const created = await call({ method: 'POST', path: `/api/admin/projects/${project}/context`, token, body: { name, legalValues: [{ value: 'eu' }] } });

    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name, project, legalValues: [{ value: 'eu' }] });
    expect(await listed(`/api/admin/projects/${project}/context`, name)).toMatchObject({ name, project, usedInFeatures: 0 });
    expect(await listed(`/api/admin/projects/${project}/context?include=root`, 'userId')).toBeDefined();
    expect(await listed(`/api/admin/projects/${project}/context`, 'userId')).toBeUndefined();
    expect(await listed('/api/admin/context', name)).toBeUndefined();
    expect(await listed('/api/admin/context?include=project', name)).toMatchObject({ project });
    expect(await listed('/api/admin/projects/default/context', name)).toBeUndefined();
    expect((await call({ method: 'GET', path: `/api/admin/projects/${project}/context/${name}`, token })).body).toMatchObject({ name, project });
  });

  it('are edited and deleted through their project only, and their names are unique across projects', async () => {
    const project = await steps.createProject();
    const name = unique('tier');
    await call({ method: 'POST', path: `/api/admin/projects/${project}/context`, token, body: { name } });

    const elsewhere = await call({ method: 'PUT', path: `/api/admin/projects/default/context/${name}`, token, body: { description: 'x' } });
    const updated = await call({ method: 'PUT', path: `/api/admin/projects/${project}/context/${name}`, token, body: { description: 'Customer tier' } });
    const clash = await call({ method: 'POST', path: '/api/admin/projects/default/context/validate', token, body: { name } });
    const rootThroughProject = await call({ method: 'DELETE', path: `/api/admin/projects/${project}/context/userId`, token });

    expect(elsewhere.status).toBe(404);
    expect(updated.status).toBe(200);
    expect((await call({ method: 'GET', path: `/api/admin/context/${name}`, token })).body).toMatchObject({ description: 'Customer tier', project });
    expect(clash.status).toBe(409);
    expect(rootThroughProject.status).toBe(404);
    expect((await call({ method: 'DELETE', path: `/api/admin/projects/${project}/context/${name}`, token })).status).toBe(200);
    expect((await call({ method: 'GET', path: `/api/admin/context/${name}`, token })).status).toBe(404);
  });

  it('answers 404 for a project that does not exist', async () => {
    const res = await call({ method: 'POST', path: `/api/admin/projects/${unique('nope')}/context`, token, body: { name: unique('f') } });

    expect([res.status, res.body.name]).toEqual([404, 'NotFoundError']);
  });
});
