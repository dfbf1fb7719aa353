import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT_ROLE } from '../../lib/roles/model.js';
import type { User } from '../../lib/users/model.js';
import { adminSession, resendWhileUnavailable, type ApiRequest, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { cookiePair, GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

/**
 * The first page after login (GET /api/admin/personal-dashboard and /{projectId}) and the
 * profile (GET /api/admin/user/profile), for the person calling, from what is stored.
 */
const { services, call, token } = adminSession();
const steps = featureSteps(call, token);
let editor: User;
let viewer: User;
let editorCookie: string;
let viewerCookie: string;

/** A login on a busy machine can meet its store deadline (503, nothing kept): it is sent again. */
async function logIn(username: string): Promise<string> {
  const res = await resendWhileUnavailable(() => call({ method: 'POST', path: '/auth/simple/login', body: { username, password: GOOD_PASSWORD } }));
  expect(res.status, res.text).toBe(200);
  return cookiePair(res.headers['set-cookie']);
}

beforeAll(async () => {
  editor = await userWithPassword(services, 'Editor');
  viewer = await userWithPassword(services, 'Viewer');
  editorCookie = await logIn(editor.username as string);
  viewerCookie = await logIn(viewer.username as string);
});

const as = (cookie: string) => (request: Omit<ApiRequest, 'headers'>) => call({ ...request, headers: { Cookie: cookie } });
const ok = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const createFeatureAs = async (cookie: string, project: string, name: string) => {
  const res = await resendWhileUnavailable(() => as(cookie)({ method: 'POST', path: `/api/admin/projects/${project}/features`, body: { name } }));
  expect(res.status, res.text).toBe(201);
  return name;
};

describe('the personal dashboard', () => {
  it('lists the default project and the projects the person starred, with their health and flag counts', async () => {
    const starred = await steps.createProject();
    const stale = await steps.createFeature(starred);
    await steps.createFeature(starred);
    await call({ method: 'POST', path: `/api/admin/projects/${starred}/stale`, token, body: { features: [stale], stale: true } });
    await as(editorCookie)({ method: 'POST', path: `/api/admin/projects/${starred}/favorites` });

    const { projects } = ok(await as(editorCookie)({ method: 'GET', path: '/api/admin/personal-dashboard' }));
    const others = ok(await as(viewerCookie)({ method: 'GET', path: '/api/admin/personal-dashboard' })).projects;

    expect(projects.find((p: { id: string }) => p.id === starred)).toEqual({
      id: starred, name: starred, health: 50, technicalDebt: 50, memberCount: 0, featureCount: 2,
    });
    expect(projects.map((p: { id: string }) => p.id)).toContain('default');
    expect(others.map((p: { id: string }) => p.id)).toEqual(['default']);
  });

  it('lists the flags the person starred or created, newest first, without archived ones or anyone else\'s', async () => {
    const project = await steps.createProject();
    const created = await createFeatureAs(editorCookie, project, `${project}-mine`);
    const archived = await createFeatureAs(editorCookie, project, `${project}-gone`);
    const starred = await steps.createFeature(project, `${project}-starred`);
    await steps.createFeature(project, `${project}-theirs`);
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [archived] } });
    await as(editorCookie)({ method: 'POST', path: `/api/admin/projects/${project}/features/${starred}/favorites` });

    const { flags } = ok(await as(editorCookie)({ method: 'GET', path: '/api/admin/personal-dashboard' }));

    expect(flags.filter((f: { project: string }) => f.project === project)).toEqual([
      { name: starred, type: 'release', project },
      { name: created, type: 'release', project },
    ]);
    expect(ok(await as(viewerCookie)({ method: 'GET', path: '/api/admin/personal-dashboard' })).flags).toEqual([]);
  });

  it('names the administrators to contact, and no viewer or editor among them', async () => {
    const admin = await userWithPassword(services, 'Admin');

    const { admins, projectOwners } = ok(await as(viewerCookie)({ method: 'GET', path: '/api/admin/personal-dashboard' }));

    expect(admins).toContainEqual({ id: admin.id, name: admin.name, username: admin.username, email: admin.email, imageUrl: expect.stringMatching(/^https:\/\/gravatar\.com\/avatar\//) });
    expect(admins.map((a: { id: number }) => a.id)).not.toContain(viewer.id);
    expect(admins.map((a: { id: number }) => a.id)).not.toContain(editor.id);
    expect(projectOwners).toEqual([]);
  });

  it('answers an API token 400: the dashboard is a person\'s', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/personal-dashboard', token });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('API token') });
  });
});

describe("a project's card on the dashboard", () => {
  it("shows the project's newest events, its onboarding, owners, roles and flag counts", async () => {
    const project = await steps.createProject();
    const first = await createFeatureAs(editorCookie, project, `${project}-first`);
    const second = await steps.createFeature(project);
    await steps.turn(project, second, 'development', 'on');

    const card = ok(await as(viewerCookie)({ method: 'GET', path: `/api/admin/personal-dashboard/${project}` }));

    expect(card.latestEvents.map((e: { createdBy: string }) => e.createdBy)).toEqual(expect.arrayContaining([editor.username]));
    expect(card.latestEvents[0]).toMatchObject({ createdBy: expect.any(String), summary: expect.stringContaining(second), createdByImageUrl: expect.stringContaining('gravatar') });
    expect(card.latestEvents.map((e: { summary: string }) => e.summary)).toEqual(expect.arrayContaining([expect.stringContaining(first)]));
    expect(card.latestEvents.at(-1).summary).toContain('project created');
    const times = card.latestEvents.map((e: { createdAt: string }) => e.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(card.onboardingStatus).toEqual({ status: 'first-flag-created', feature: first });
    expect(card.owners).toEqual([{ ownerType: 'system' }]);
    expect(card.roles).toEqual([]);
    expect(card.insights).toEqual({
      avgHealthCurrentWindow: null, avgHealthPastWindow: null,
      totalFlags: 2, activeFlags: 2, staleFlags: 0, potentiallyStaleFlags: 0, health: 100, technicalDebt: 0,
    });
  });

  it('lists at most the ten newest events', async () => {
    const project = await steps.createProject();
    for (let index = 0; index < 6; index += 1) {
      const feature = await steps.createFeature(project);
      await steps.turn(project, feature, 'development', 'on');
    }

    const card = ok(await as(viewerCookie)({ method: 'GET', path: `/api/admin/personal-dashboard/${project}` }));

    expect(card.latestEvents).toHaveLength(10);
  });

  it('answers 404 for a project that does not exist, in Unleash\'s words', async () => {
    const res = await as(viewerCookie)({ method: 'GET', path: '/api/admin/personal-dashboard/no-such-project' });

    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ name: 'NotFoundError', message: 'No project with id "no-such-project" exists.' });
  });
});

describe("the person's profile", () => {
  it('answers their root role and the default project, with no e-mail subscriptions', async () => {
    const profile = ok(await as(viewerCookie)({ method: 'GET', path: '/api/admin/user/profile' }));
    const editorProfile = ok(await as(editorCookie)({ method: 'GET', path: '/api/admin/user/profile' }));

    expect(profile).toEqual({
      rootRole: { id: ROOT_ROLE.Viewer, name: 'Viewer', type: 'root', description: expect.any(String) },
      projects: ['default'], subscriptions: [], features: [],
    });
    expect(editorProfile.rootRole).toMatchObject({ id: ROOT_ROLE.Editor, name: 'Editor' });
  });

  it('answers an API token 400', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/user/profile', token });

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
  });
});
