import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { environment, featureSteps } from '../support/features.js';
import { adminToken, testServices, unique } from '../support/services.js';

/**
 * The bulk actions of a project's flag table, as the 7.6.5 UI calls them: enable or disable the
 * selected flags in an environment, add and remove tags, mark stale, archive.
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

const bulkSwitch = (project: string, env: string, state: 'on' | 'off', features: string[], activate = false) => call({
  method: 'POST', path: `/api/admin/projects/${project}/bulk_features/environments/${env}/${state}?shouldActivateDisabledStrategies=${activate}`,
  token, body: { features },
});
const bulkTags = (project: string, features: string[], tags: { addedTags: unknown[]; removedTags: unknown[] }) =>
  call({ method: 'PUT', path: `/api/admin/projects/${project}/tags`, token, body: { features, tags } });
const stateIn = async (project: string, name: string, env: string) => environment((await steps.getFeature(project, name)).body, env);
const eventsOf = async (name: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/search/events?feature=IS:${name}`, token });
  return (res.body.events as Array<{ type: string; featureName: string; environment: string | null }>).filter((event) => event.featureName === name);
};

describe('bulk enable and disable in an environment', () => {
  it('switches every selected flag on with a default strategy, and off again, each with its own event', async () => {
    const names = [await steps.createFeature(), await steps.createFeature()];

    const on = await bulkSwitch('default', 'development', 'on', names);

    expect(on.status).toBe(200);
    for (const name of names) {
      const development = await stateIn('default', name, 'development');
      expect(development.enabled).toBe(true);
      expect(development.strategies).toEqual([expect.objectContaining({ name: 'flexibleRollout', disabled: false })]);
      expect((await eventsOf(name)).map((event) => `${event.type}:${event.environment}`)).toContain('feature-environment-enabled:development');
    }
    const off = await bulkSwitch('default', 'development', 'off', names);
    expect(off.status).toBe(200);
    for (const name of names) expect((await stateIn('default', name, 'development')).enabled).toBe(false);
  });

  it('shouldActivateDisabledStrategies=true switches the disabled strategies on instead of adding one', async () => {
    const name = await steps.createFeature();
    await steps.addStrategy('default', name, 'development', { name: 'default', disabled: true });

    await bulkSwitch('default', 'development', 'on', [name], true);

    const development = await stateIn('default', name, 'development');
    expect(development.enabled).toBe(true);
    expect(development.strategies).toEqual([expect.objectContaining({ name: 'default', disabled: false })]);
  });

  it('changes no flag when one named flag is missing or in another project', async () => {
    const project = await steps.createProject();
    const here = await steps.createFeature();
    const elsewhere = await steps.createFeature(project);

    const missing = await bulkSwitch('default', 'development', 'on', [here, unique('missing')]);
    const foreign = await bulkSwitch('default', 'development', 'on', [here, elsewhere]);

    expect([missing.status, missing.body.name]).toEqual([404, 'NotFoundError']);
    expect([foreign.status, foreign.body.name]).toEqual([404, 'NotFoundError']);
    expect((await stateIn('default', here, 'development')).enabled).toBe(false);
    expect((await stateIn(project, elsewhere, 'development')).enabled).toBe(false);
  });

  it('refuses an empty selection and an environment the project lacks', async () => {
    const name = await steps.createFeature();

    const empty = await bulkSwitch('default', 'development', 'on', []);
    const unknownEnv = await bulkSwitch('default', unique('env'), 'on', [name]);

    expect([empty.status, empty.body.name]).toEqual([400, 'ValidationError']);
    expect(empty.body.message).toContain('features');
    expect([unknownEnv.status, unknownEnv.body.name]).toEqual([404, 'NotFoundError']);
  });
});

describe('bulk tags', () => {
  it('adds and removes tags on every selected flag, each with a feature-tagged event', async () => {
    const names = [await steps.createFeature(), await steps.createFeature()];
    await call({ method: 'POST', path: `/api/admin/features/${names[0]}/tags`, token, body: { type: 'simple', value: 'old-tag' } });

    const res = await bulkTags('default', names, { addedTags: [{ type: 'simple', value: 'bulk-tag' }], removedTags: [{ type: 'simple', value: 'old-tag' }] });

    expect(res.status).toBe(200);
    for (const name of names) {
      expect((await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token })).body.tags).toEqual([{ type: 'simple', value: 'bulk-tag' }]);
      expect((await eventsOf(name)).map((event) => event.type)).toContain('feature-tagged');
    }
  });

  it('refuses a tag type that does not exist, tagging no flag', async () => {
    const name = await steps.createFeature();

    const res = await bulkTags('default', [name], { addedTags: [{ type: unique('nosuchtype'), value: 'x1' }], removedTags: [] });

    expect([res.status, res.body.name]).toEqual([400, 'ValidationError']);
    expect((await call({ method: 'GET', path: `/api/admin/features/${name}/tags`, token })).body.tags).toEqual([]);
  });
});

describe('bulk stale and archive (the rows the table already had)', () => {
  it('marks the selected flags stale and archives them', async () => {
    const names = [await steps.createFeature(), await steps.createFeature()];

    const stale = await call({ method: 'POST', path: '/api/admin/projects/default/stale', token, body: { features: names, stale: true } });
    expect(stale.status).toBe(202);
    for (const name of names) expect((await steps.getFeature('default', name)).body.stale).toBe(true);
    const archived = await call({ method: 'POST', path: '/api/admin/projects/default/archive', token, body: { features: names } });

    expect(archived.status).toBe(202);
    for (const name of names) expect((await steps.getFeature('default', name)).status).toBe(404);
  });
});
