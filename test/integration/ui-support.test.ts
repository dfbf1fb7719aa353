import { describe, expect, it } from 'vitest';
import { ROOT_ROLE } from '../../lib/roles/model.js';
import { adminSession, apiClient, type ApiResponse } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, freshInstanceServices } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const get = (path: string) => call({ method: 'GET', path, token });
const ok = (res: ApiResponse) => {
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe("a project's status and dashboard card", () => {
  it("counts the project's own flags: active, stale, archived, health", async () => {
    const project = await steps.createProject();
    const [stale, , archived] = [await steps.createFeature(project), await steps.createFeature(project), await steps.createFeature(project)];
    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [stale], stale: true } });
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [archived] } });

    const status = ok(await get(`/api/admin/projects/${project}/status`));
    const card = ok(await get(`/api/admin/personal-dashboard/${project}`));

    expect(status).toEqual({
      activityCountByDate: [], resources: { members: 0, apiTokens: 0, segments: 0 },
      health: { current: 50 }, technicalDebt: { current: 50 }, staleFlags: { total: 1 },
      lifecycleSummary: {
        initial: { averageDays: null, currentFlags: 2 }, preLive: { averageDays: null, currentFlags: 0 }, live: { averageDays: null, currentFlags: 0 },
        completed: { averageDays: null, currentFlags: 0 }, archived: { averageDays: null, currentFlags: 1 },
      },
    });
    expect(card).toMatchObject({
      owners: [{ ownerType: 'system' }], roles: [], latestEvents: [], onboardingStatus: { status: 'onboarded' },
      insights: { totalFlags: 3, activeFlags: 2, staleFlags: 1, potentiallyStaleFlags: 0, health: 50, technicalDebt: 50 },
    });
  });

  it('answers 404 for a project that does not exist', async () => {
    for (const path of ['/api/admin/projects/no-such-project/status', '/api/admin/personal-dashboard/no-such-project', '/api/admin/projects/no-such-project/flag-creators']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.name).toBe('NotFoundError');
    }
  });
});

describe("a project's API tokens (GET /api/admin/projects/{p}/api-tokens)", () => {
  it('lists the tokens scoped to the project, not those of every project, secrets masked', async () => {
    const project = await steps.createProject();
    const created = await call({ method: 'POST', path: '/api/admin/api-tokens', token, body: { tokenName: `${project}-sdk`, type: 'client', environment: 'development', project } });

    const res = ok(await get(`/api/admin/projects/${project}/api-tokens`));

    expect(res.tokens.map((t: { tokenName: string }) => t.tokenName)).toEqual([`${project}-sdk`]);
    expect(res.tokens[0].projects).toEqual([project]);
    expect(JSON.stringify(res)).not.toContain(created.body.secret);
  });
});

describe('the answers Unleash gives when there is nothing to show', () => {
  it('answers the dashboard, profile, flag creators, SDKs, and telemetry in their shapes', async () => {
    expect(ok(await get('/api/admin/personal-dashboard'))).toEqual({ projects: [], flags: [], admins: [], projectOwners: [] });
    expect(ok(await get('/api/admin/user/profile'))).toMatchObject({ rootRole: { id: ROOT_ROLE.Admin, name: 'Admin', type: 'root' }, projects: [], features: [], subscriptions: [] });
    expect(ok(await get('/api/admin/projects/default/flag-creators'))).toEqual([]);
    expect(ok(await get('/api/admin/projects/default/sdks/outdated'))).toEqual({ sdks: [] });
    expect(ok(await get('/api/admin/telemetry/settings'))).toEqual({ versionInfoCollectionEnabled: false, featureInfoCollectionEnabled: false });
  });

  it('counts every active flag as initial in the lifecycle count, one more with each new flag', async () => {
    const before = ok(await get('/api/admin/lifecycle/count'));
    await steps.createFeature();

    const after = ok(await get('/api/admin/lifecycle/count'));

    expect(after.initial).toBeGreaterThan(before.initial);
    expect(after).toMatchObject({ preLive: 0, live: 0, completed: 0, archived: 0 });
  });

  it('records what the UI reports of its errors, and refuses a bad body with a 400 naming the field', async () => {
    const recorded = await call({ method: 'POST', path: '/api/admin/record-ui-error', token, body: { errorMessage: 'boom', errorStack: 'at X' } });
    const noMessage = await call({ method: 'POST', path: '/api/admin/record-ui-error', token, body: { errorStack: 'at X' } });

    expect(recorded.status).toBe(204);
    for (const [res, field] of [[noMessage, 'errorMessage']] as const) {
      expect(res.status, field).toBe(400);
      expect(res.body.message).toContain(field);
    }
  });
});

describe('Admin settings → Instance stats', () => {
  it("counts the instance's users, tokens, flags, projects and catalogues as they are now", async () => {
    // A table of its own: other test files add flags and projects to the shared one meanwhile.
    const instance = await freshInstanceServices();
    const own = apiClient(instance);
    const ownToken = await adminToken(instance);
    const stats = async () => {
      const res = await own({ method: 'GET', path: '/api/admin/instance-admin/statistics', token: ownToken });
      return ok(res);
    };
    const before = await stats();
    const ownSteps = featureSteps(own, ownToken);
    await ownSteps.createFeature(await ownSteps.createProject());

    const after = await stats();

    expect(after.instanceId).toBe(before.instanceId);
    expect(after.featureToggles).toBe(before.featureToggles + 1);
    expect(after.projects).toBe(before.projects + 1);
    expect(after.apiTokens.admin).toBeGreaterThan(0);
    expect(after.environments).toBeGreaterThanOrEqual(2);
    expect(after.sum).toMatch(/^[0-9a-f]{64}$/);
    expect(after.sum).not.toBe(before.sum);
  });
});
