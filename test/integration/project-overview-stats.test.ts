import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

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
