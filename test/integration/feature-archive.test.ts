import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { environment, featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const stale = (project: string, features: string[], value: boolean) =>
  call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features, stale: value } });
const archive = (project: string, features: string[]) =>
  call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features } });

describe('E5 mark stale', () => {
  it('answers 202 with no body, ignores unknown names, and flips stale both ways', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);

    const on = await stale(project, [name, unique('ghost')], true);
    const marked = await steps.getFeature(project, name);
    await stale(project, [name], false);
    const unmarked = await steps.getFeature(project, name);

    expect(on.status).toBe(202);
    expect(on.text).toBe('');
    expect(marked.body.stale).toBe(true);
    expect(unmarked.body.stale).toBe(false);
  });

  it('refuses the whole call with 403 when a named feature lives in another project, naming it', async () => {
    const project = await steps.createProject();
    const mine = await steps.createFeature(project);
    const theirs = await steps.createFeature('default');

    const res = await stale(project, [mine, theirs], true);
    const after = await steps.getFeature(project, mine);

    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain(theirs);
    expect(after.body.stale).toBe(false);
  });
});

describe('E6 archive', () => {
  it('archives with 202, ignores unknown and already archived names, and lists archived features', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);

    const first = await archive(project, [name, unique('ghost')]);
    const again = await archive(project, [name]);
    const get = await steps.getFeature(project, name);
    const archived = await call({ method: 'GET', path: `/api/admin/archive/features?project=${project}`, token });

    expect([first.status, again.status]).toEqual([202, 202]);
    expect(get.status).toBe(404);
    expect(archived.body.features.map((f: { name: string }) => f.name)).toEqual([name]);
    expect(archived.body.features[0]).toMatchObject({ archived: true });
    expect(archived.body.features[0].archivedAt).toBeTruthy();
  });

  it('archives nothing when one named feature belongs to another project', async () => {
    const project = await steps.createProject();
    const mine = await steps.createFeature(project);
    const theirs = await steps.createFeature('default');

    const res = await archive(project, [mine, theirs]);
    const after = await steps.getFeature(project, mine);

    expect(res.status).toBe(403);
    expect(res.body.message).toContain(theirs);
    expect(after.status).toBe(200);
  });

  it('refuses to archive a parent without its children, and archiving a child removes its dependency', async () => {
    const project = await steps.createProject();
    const parent = await steps.createFeature(project);
    const child = await steps.createFeature(project);
    await call({ method: 'POST', path: `${steps.base(project, child)}/dependencies`, token, body: { feature: parent } });

    const refused = await archive(project, [parent]);
    const childArchived = await archive(project, [child]);
    const parentAfter = await steps.getFeature(project, parent);
    const parentArchived = await archive(project, [parent]);

    expect(refused.status).toBe(403);
    expect(childArchived.status).toBe(202);
    expect(parentAfter.body.children).toEqual([]);
    expect(parentArchived.status).toBe(202);
  });

  it('keeps environment state on archive; revive switches every environment off; delete removes it for good', async () => {
    const project = await steps.createProject();
    const name = await steps.createFeature(project);
    await steps.turn(project, name, 'development', 'on');
    await archive(project, [name]);

    const revived = await call({ method: 'POST', path: `/api/admin/archive/revive/${name}`, token });
    const afterRevive = await steps.getFeature(project, name);
    await archive(project, [name]);
    const deleted = await call({ method: 'DELETE', path: `/api/admin/archive/${name}`, token });
    const recreated = await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } });

    expect(revived.status).toBe(200);
    expect(environment(afterRevive.body, 'development')).toMatchObject({ enabled: false, hasStrategies: true });
    expect(deleted.status).toBe(200);
    expect(recreated.status).toBe(201);
  });

  it('archives one feature with DELETE on the feature (202)', async () => {
    const name = await steps.createFeature();

    const res = await call({ method: 'DELETE', path: steps.base('default', name), token });

    expect(res.status).toBe(202);
    expect((await steps.getFeature('default', name)).status).toBe(404);
    // Archived, not deleted: the archive lists it.
    const archived = await call({ method: 'GET', path: '/api/admin/archive/features?project=default', token });
    expect(archived.body.features.find((f: { name: string }) => f.name === name)).toMatchObject({ archived: true });
  });

  it('frees the project feature limit when a feature is archived', async () => {
    const project = await steps.createProject({ featureLimit: 1 });
    const first = await steps.createFeature(project);
    await archive(project, [first]);

    const name = unique('f');
    const second = await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } });

    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ name, project });
    expect((await steps.getFeature(project, name)).body).toMatchObject({ name, project, archived: false });
  });
});
