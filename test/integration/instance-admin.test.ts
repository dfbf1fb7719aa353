/** The instance pages of the admin UI: instance statistics, privacy, the UI's own error reports, and a project's API tokens. */
import { describe, expect, it } from 'vitest';
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

describe("what the admin UI's instance pages read", () => {
  it('answers the privacy page that nothing is reported about the instance, as the service never calls out', async () => {
    expect(ok(await get('/api/admin/telemetry/settings'))).toEqual({ versionInfoCollectionEnabled: false, featureInfoCollectionEnabled: false });
    expect(ok(await get('/api/admin/ui-config')).versionInfo).toMatchObject({ latest: {}, isLatest: true });
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
    // The admin home shows versionEnterprise as "Unleash version": this service's own name and version.
    expect(after.versionEnterprise).toBe(`serverless-toggles ${after.versionOSS}`);
    expect(after.versionOSS).toBe((await own({ method: 'GET', path: '/api/admin/ui-config', token: ownToken })).body.version);
  });
});
