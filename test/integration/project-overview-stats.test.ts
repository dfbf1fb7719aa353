import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { adminToken, testServices } from '../support/services.js';

const services = testServices();
const call = apiClient(services);
let token: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  token = await adminToken(services);
  steps = featureSteps(call, token);
});

const overview = (project: string) => call({ method: 'GET', path: `/api/admin/projects/${project}`, token });

describe('E8 project overview figures', () => {
  it('counts created, archived and all activity of the last 30 days from recorded events', async () => {
    const project = await steps.createProject();
    const kept = await steps.createFeature(project);
    const gone = await steps.createFeature(project);
    await steps.turn(project, kept, 'production', 'on');
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [gone] } });

    const res = await overview(project);

    expect(res.status).toBe(200);
    expect(res.body.stats).toEqual({
      avgTimeToProdCurrentWindow: 0,
      createdCurrentWindow: 2,
      createdPastWindow: 0,
      archivedCurrentWindow: 1,
      archivedPastWindow: 0,
      projectActivityCurrentWindow: 5, // the project itself, two creates, one enabling, one archive
      projectActivityPastWindow: 0,
      projectMembersAddedCurrentWindow: 0,
    });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual([kept]);
  });

  it('drops health when a feature is marked stale', async () => {
    const project = await steps.createProject();
    const [a] = [await steps.createFeature(project), await steps.createFeature(project)];
    const before = (await overview(project)).body.health;

    await call({ method: 'POST', path: `/api/admin/projects/${project}/stale`, token, body: { features: [a], stale: true } });
    const after = (await overview(project)).body.health;

    expect(before).toBe(100);
    expect(after).toBe(50);
  });
});
