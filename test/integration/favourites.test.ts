import { beforeAll, describe, expect, it } from 'vitest';
import { adminSession, resendWhileUnavailable, type ApiRequest, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { cookiePair, GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

/**
 * The star on flags and projects (POST/DELETE …/favorites), per user, and the `favorite` field
 * wherever the admin UI reads it: the flag page, the feature search (with favourites first), the
 * project list and the project page.
 */
const { services, call, token } = adminSession();
const steps = featureSteps(call, token);
let alice: string;
let bob: string;

/** A login on a busy machine can meet its store deadline (503, nothing kept): it is sent again. */
async function logIn(username: string): Promise<string> {
  const res = await resendWhileUnavailable(() => call({ method: 'POST', path: '/auth/simple/login', body: { username, password: GOOD_PASSWORD } }));
  expect(res.status, res.text).toBe(200);
  return cookiePair(res.headers['set-cookie']);
}

beforeAll(async () => {
  alice = await logIn((await userWithPassword(services, 'Editor')).username as string);
  bob = await logIn((await userWithPassword(services, 'Viewer')).username as string);
});

const as = (cookie: string) => (request: Omit<ApiRequest, 'headers'>) => call({ ...request, headers: { Cookie: cookie } });
const ok = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const starFeature = (cookie: string, project: string, feature: string, method = 'POST') =>
  as(cookie)({ method, path: `/api/admin/projects/${project}/features/${feature}/favorites` });
const starProject = (cookie: string, project: string, method = 'POST') => as(cookie)({ method, path: `/api/admin/projects/${project}/favorites` });
const search = (cookie: string, query: string) => as(cookie)({ method: 'GET', path: `/api/admin/search/features?${query}` });

describe('starring a flag', () => {
  it("marks it favorite on the caller's flag page and in the caller's searches only", async () => {
    const project = await steps.createProject();
    const starred = await steps.createFeature(project);
    const other = await steps.createFeature(project);

    expect((await starFeature(alice, project, starred)).status).toBe(200);

    expect(ok(await as(alice)({ method: 'GET', path: `/api/admin/projects/${project}/features/${starred}` })).favorite).toBe(true);
    expect(ok(await as(alice)({ method: 'GET', path: `/api/admin/projects/${project}/features/${other}` })).favorite).toBe(false);
    expect(ok(await as(bob)({ method: 'GET', path: `/api/admin/projects/${project}/features/${starred}` })).favorite).toBe(false);
    const favourites = (body: { features: Array<{ name: string; favorite: boolean }> }) => body.features.filter((f) => f.favorite).map((f) => f.name);
    expect(favourites(ok(await search(alice, `project=IS:${project}`)))).toEqual([starred]);
    expect(favourites(ok(await search(bob, `project=IS:${project}`)))).toEqual([]);
  });

  it('lists favourites first when asked, each part in the order asked, and filters by favorite', async () => {
    const project = await steps.createProject();
    const [a, b, c] = [await steps.createFeature(project, `${project}-a`), await steps.createFeature(project, `${project}-b`), await steps.createFeature(project, `${project}-c`)];
    await starFeature(alice, project, c);

    const first = ok(await search(alice, `project=IS:${project}&sortBy=name&sortOrder=asc&favoritesFirst=true`));
    const plain = ok(await search(alice, `project=IS:${project}&sortBy=name&sortOrder=asc`));
    const onlyStarred = ok(await search(alice, `project=IS:${project}&favorite=IS:true`));
    const onlyOthers = ok(await search(alice, `project=IS:${project}&favorite=IS:false&sortBy=name`));

    expect(first.features.map((f: { name: string }) => f.name)).toEqual([c, a, b]);
    expect(plain.features.map((f: { name: string }) => f.name)).toEqual([a, b, c]);
    expect(onlyStarred.features.map((f: { name: string }) => f.name)).toEqual([c]);
    expect(onlyStarred.total).toBe(1);
    expect(onlyOthers.features.map((f: { name: string }) => f.name)).toEqual([a, b]);
  });

  it('removes the star with DELETE, and records both as events', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);
    await starFeature(alice, project, feature);

    expect((await starFeature(alice, project, feature, 'DELETE')).status).toBe(200);

    expect(ok(await as(alice)({ method: 'GET', path: `/api/admin/projects/${project}/features/${feature}` })).favorite).toBe(false);
    const events = ok(await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${feature}`, token }));
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['feature-unfavorited', 'feature-favorited', 'feature-created']);
  });

  it('writes nothing when the star is there already or was never put', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);

    await starFeature(alice, project, feature);
    await starFeature(alice, project, feature);
    await starFeature(bob, project, feature, 'DELETE');

    const events = ok(await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${feature}`, token }));
    expect(events.events.map((e: { type: string }) => e.type)).toEqual(['feature-favorited', 'feature-created']);
  });

  it('answers 404 for a flag that does not exist or is in another project', async () => {
    const project = await steps.createProject();
    const elsewhere = await steps.createFeature('default');

    for (const [p, f] of [[project, 'no-such-flag'], [project, elsewhere]] as const) {
      const res = await starFeature(alice, p, f);
      expect(res.status, `${p}/${f}`).toBe(404);
      expect(res.body).toMatchObject({ name: 'NotFoundError', message: expect.stringContaining(f) });
    }
  });

  it('answers an API token 400: favourites belong to a person', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);

    const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/features/${feature}/favorites`, token });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('API token') });
    expect(ok(await steps.getFeature(project, feature)).favorite).toBe(false);
  });
});

describe('starring a project', () => {
  it("marks it favorite in the caller's project list and on its project page", async () => {
    const project = await steps.createProject();
    const other = await steps.createProject();

    expect((await starProject(alice, project)).status).toBe(200);

    const listed = ok(await as(alice)({ method: 'GET', path: '/api/admin/projects' })).projects;
    const star = (id: string) => listed.find((p: { id: string }) => p.id === id)?.favorite;
    expect([star(project), star(other)]).toEqual([true, false]);
    expect(ok(await as(alice)({ method: 'GET', path: `/api/admin/projects/${project}/overview` })).favorite).toBe(true);
    expect(ok(await as(bob)({ method: 'GET', path: `/api/admin/projects/${project}/overview` })).favorite).toBe(false);

    expect((await starProject(alice, project, 'DELETE')).status).toBe(200);
    expect(ok(await as(alice)({ method: 'GET', path: `/api/admin/projects/${project}/overview` })).favorite).toBe(false);
    const events = ok(await call({ method: 'GET', path: `/api/admin/search/events?project=IS:${project}`, token }));
    expect(events.events.map((e: { type: string }) => e.type).slice(0, 2)).toEqual(['project-unfavorited', 'project-favorited']);
  });

  it('answers 404 for a project that does not exist', async () => {
    const res = await starProject(alice, 'no-such-project');
    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
  });
});

describe("the project list's technical debt", () => {
  it('is 100 minus health, as the project cards read it', async () => {
    const project = await steps.createProject();
    const stale = await steps.createFeature(project);
    await steps.createFeature(project);
    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [stale], stale: true } });

    const listed = ok(await call({ method: 'GET', path: '/api/admin/projects', token })).projects.find((p: { id: string }) => p.id === project);

    expect(listed).toMatchObject({ health: 50, technicalDebt: 50 });
  });
});
