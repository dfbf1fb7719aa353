import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient, resendWhileUnavailable, type ApiResponse } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken } from '../support/services.js';
import { cookiePair, GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

/**
 * A project's status page (GET /api/admin/projects/{p}/status), its flag creators and its
 * outdated SDKs, from what is stored. A table of its own: the SDK registrations and the year of
 * events each read are then exactly this file's.
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const get = (path: string) => call({ method: 'GET', path, token });
const ok = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("a project's status", () => {
  it('counts its tokens and segments, health, stale flags and the flags in each lifecycle stage', async () => {
    const project = await steps.createProject();
    const [completed, stale, archived] = [await steps.createFeature(project), await steps.createFeature(project), await steps.createFeature(project)];
    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [stale], stale: true } });
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [archived] } });
    const complete = await call({ method: 'POST', path: `${steps.base(project, completed)}/lifecycle/complete`, token, body: { status: 'kept' } });
    expect(complete.status, complete.text).toBeLessThan(300);
    await sdkToken(services, { projects: [project] });
    await sdkToken(services, { projects: ['*'] });
    const segment = await call({ method: 'POST', path: '/api/admin/segments', token, body: { name: `${project}-segment`, constraints: [], project } });
    expect(segment.status, segment.text).toBe(201);

    const status = ok(await get(`/api/admin/projects/${project}/status`));

    expect(status).toMatchObject({
      resources: { members: 0, apiTokens: 1, segments: 1 },
      health: { current: 50 }, technicalDebt: { current: 50 }, staleFlags: { total: 1 },
      lifecycleSummary: {
        // Two flags left initial (one completed, one archived), both within the same day.
        initial: { averageDays: 0, currentFlags: 1 },
        preLive: { averageDays: null, currentFlags: 0 },
        live: { averageDays: null, currentFlags: 0 },
        completed: { averageDays: null, currentFlags: 1 },
        archived: { currentFlags: 1, last30Days: 1 },
      },
    });
  });

  it("counts its events by day, as many as the event log lists for the project", async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);
    await steps.turn(project, feature, 'development', 'on');
    await steps.turn(project, feature, 'development', 'off');

    const status = ok(await get(`/api/admin/projects/${project}/status`));
    const log = ok(await get(`/api/admin/search/events?project=IS:${project}&limit=100`));

    const counted = status.activityCountByDate.reduce((sum: number, day: { count: number }) => sum + day.count, 0);
    expect(counted).toBe(log.total);
    expect(counted).toBeGreaterThanOrEqual(4);
    for (const day of status.activityCountByDate) expect(day.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const dates = status.activityCountByDate.map((day: { date: string }) => day.date);
    expect(dates).toEqual([...dates].sort());
  });
});

describe("a project's flag creators", () => {
  it('names who created its active flags, once each: a person by name, an API token as Unleash\'s admin-token user', async () => {
    const project = await steps.createProject();
    const person = await userWithPassword(services, 'Editor');
    const archivedOnly = await userWithPassword(services, 'Editor');
    const createAs = async (user: typeof person, name: string) => {
      const login = await resendWhileUnavailable(() => call({ method: 'POST', path: '/auth/simple/login', body: { username: user.username, password: GOOD_PASSWORD } }));
      const res = await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, headers: { Cookie: cookiePair(login.headers['set-cookie']) }, body: { name } });
      expect(res.status, res.text).toBe(201);
      expect(res.body.createdBy).toEqual({ id: user.id, name: user.name, imageUrl: expect.stringContaining('gravatar') });
    };
    await createAs(person, `${project}-a`);
    await createAs(person, `${project}-b`);
    await createAs(archivedOnly, `${project}-c`);
    await steps.createFeature(project);
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [`${project}-b`, `${project}-c`] } });

    const creators = ok(await get(`/api/admin/projects/${project}/flag-creators`));

    expect(creators).toEqual([{ id: -42, name: 'Unleash Admin Token User' }, { id: person.id, name: person.name }]);
    expect(creators.map((c: { id: number }) => c.id)).not.toContain(archivedOnly.id);
    const searched = ok(await get(`/api/admin/search/features?project=IS:${project}&createdBy=IS:${person.id}`));
    expect(searched.features.map((f: { name: string; createdBy: { id: number } }) => [f.name, f.createdBy.id])).toEqual([[`${project}-a`, person.id]]);
  });
});

describe("a project's outdated SDKs", () => {
  it("lists the SDK versions older than Unleash's cut-offs among the applications registered for the project", async () => {
    const project = await steps.createProject();
    const other = await steps.createProject();
    const own = await sdkToken(services, { projects: [project] });
    const elsewhere = await sdkToken(services, { projects: [other] });
    const everyProject = await sdkToken(services, { projects: ['*'] });
    const register = async (secret: string, appName: string, sdkVersion: string) => {
      const res = await call({
        method: 'POST', path: '/api/client/register', token: secret,
        body: { appName, instanceId: `${appName}-1`, sdkVersion, strategies: ['default'], started: new Date().toISOString(), interval: 15000 },
      });
      expect(res.status, res.text).toBeLessThan(300);
    };
    await register(own, `${project}-old`, 'unleash-client-node:5.0.0');
    await register(own, `${project}-new`, 'unleash-client-node:6.0.0');
    await register(own, `${project}-pre`, 'unleash-node-sdk:6.6.0-beta.1');
    await register(elsewhere, `${other}-old`, 'unleash-client-go:3.0.0');
    await register(everyProject, 'everywhere', 'unleash-python-sdk:6.2.9');

    const { sdks } = ok(await get(`/api/admin/projects/${project}/sdks/outdated`));

    expect(sdks).toEqual([
      { sdkVersion: 'unleash-client-node:5.0.0', applications: [`${project}-old`] },
      { sdkVersion: 'unleash-node-sdk:6.6.0-beta.1', applications: [`${project}-pre`] },
      { sdkVersion: 'unleash-python-sdk:6.2.9', applications: ['everywhere'] },
    ]);
  });
});

describe('a project that does not exist', () => {
  it('answers 404 on its status, flag creators and outdated SDKs (Unleash answers them empty)', async () => {
    for (const path of ['status', 'flag-creators', 'sdks/outdated']) {
      const res = await get(`/api/admin/projects/no-such-project/${path}`);
      expect(res.status, path).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });
});
