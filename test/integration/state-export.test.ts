import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();
const steps = featureSteps(call, token);

const exportState = (query = '') => call({ method: 'GET', path: `/api/admin/state/export${query}`, token });

describe('E10 state export', () => {
  it('exports the State with version, active features, their strategies and environments, and custom strategy types only', async () => {
    const project = await steps.createProject();
    const active = await steps.createFeature(project);
    const archived = await steps.createFeature(project);
    await steps.turn(project, active, 'development', 'on');
    await call({ method: 'POST', path: `/api/admin/projects/${project}/archive`, token, body: { features: [archived] } });
    const custom = unique('custom');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name: custom, parameters: [] } });

    const res = await exportState();

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(4);
    const names = res.body.features.map((f: { name: string }) => f.name);
    expect(names).toContain(active);
    expect(names).not.toContain(archived);
    expect(res.body.featureStrategies.find((s: { featureName: string }) => s.featureName === active)).toMatchObject({
      projectId: project, environment: 'development', strategyName: 'flexibleRollout',
    });
    expect(res.body.featureEnvironments).toContainEqual(expect.objectContaining({ featureName: active, environment: 'development', enabled: true }));
    const strategyNames = res.body.strategies.map((s: { name: string }) => s.name);
    expect(strategyNames).toContain(custom);
    expect(strategyNames).not.toContain('flexibleRollout');
    const projectEntry = res.body.projects.find((p: { id: string }) => p.id === project);
    expect(projectEntry).toMatchObject({ featureCount: 1, staleFeatureCount: 0, health: 100 });
    const development = res.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(development.enabledToggleCount).toBeGreaterThanOrEqual(1);
    expect(development.projectCount).toBeGreaterThanOrEqual(2);
  });

  it('lists features by name whatever order they last changed in', async () => {
    const project = await steps.createProject();
    const prefix = unique('order');
    const [first, second, third] = [`${prefix}-a`, `${prefix}-b`, `${prefix}-c`];
    for (const name of [third, first, second]) {
      await call({ method: 'POST', path: `/api/admin/projects/${project}/features`, token, body: { name } });
    }
    // A change moves a feature to the end of the process's snapshot of every feature.
    await steps.turn(project, first, 'development', 'on');

    const res = await exportState();

    const names = res.body.features.map((f: { name: string }) => f.name).filter((name: string) => name.startsWith(prefix));
    expect(names).toEqual([first, second, third]);
    const all = res.body.features.map((f: { name: string }) => f.name);
    expect(all).toEqual([...all].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('leaves out the sections whose include flag is false or 0, and keeps segments', async () => {
    const res = await exportState('?featureToggles=false&strategies=0&projects=false&tags=0&environments=false');

    expect(Object.keys(res.body).sort()).toEqual(['segments', 'version']);
  });

  it('answers YAML, and an attachment with a stamped file name when download is true', async () => {
    const res = await exportState('?format=yaml&download=1&featureToggles=0');

    expect(res.headers['content-type']).toContain('yaml');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="export-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.yml"$/);
    expect(parse(res.text).version).toBe(4);
  });

  it.each(['?format=xml', '?download=yes', '?tags=TRUE', '?projects=2'])('answers 400 for %s', async (query) => {
    const res = await exportState(query);

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
  });
});
