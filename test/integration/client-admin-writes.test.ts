import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { adminToken, unique } from '../support/services.js';

/** What the admin API changes, as the SDK API serves it on the next poll. */
let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;
let client: string;
let steps: ReturnType<typeof featureSteps>;

beforeAll(async () => {
  services = await isolatedServices();
  call = apiClient(services);
  admin = await adminToken(services);
  client = await sdkToken(services);
  steps = featureSteps(call, admin);
});

const SPEC = { 'Unleash-Client-Spec': '5.2.0' };
const poll = (query: string, headers: Record<string, string> = {}) =>
  call({ method: 'GET', path: `/api/client/features?${query}`, token: client, headers });
const rollout = { name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'g' } };
const inPlan = (plan: string) => [{ contextName: 'appName', operator: 'IN', values: [plan] }];

describe('admin writes as the SDK sees them', () => {
  it('lists a used segment for new SDKs, inlines it for old ones, and serves its update on the next poll', async () => {
    const created = await call({ method: 'POST', path: '/api/admin/segments', token: admin, body: { name: unique('seg'), constraints: inPlan('a') } });
    const name = await steps.createFeature();
    await steps.addStrategy('default', name, 'development', { ...rollout, segments: [created.body.id] });
    await steps.turn('default', name, 'development', 'on');
    const listed = await poll(`namePrefix=${name}`, SPEC);
    const inline = await poll(`namePrefix=${name}`);

    await call({ method: 'PUT', path: `/api/admin/segments/${created.body.id}`, token: admin, body: { name: created.body.name, constraints: inPlan('b') } });
    const updated = await poll(`namePrefix=${name}`, { 'If-None-Match': inline.headers.etag as string });

    expect(listed.body.segments).toEqual([{ id: created.body.id, name: created.body.name, constraints: [expect.objectContaining({ values: ['a'] })] }]);
    expect(listed.body.features[0].strategies[0]).toMatchObject({ segments: [created.body.id], constraints: [] });
    expect(inline.body.features[0].strategies[0].constraints).toEqual([expect.objectContaining({ contextName: 'appName', values: ['a'] })]);
    expect(updated.status).toBe(200);
    expect(updated.body.features[0].strategies[0].constraints).toEqual([expect.objectContaining({ values: ['b'] })]);
  });

  it('serves a feature of a project without the environment as off with no strategies', async () => {
    const project = await steps.createProject({ environments: ['production'] });
    const name = await steps.createFeature(project);
    await steps.addStrategy(project, name, 'production', rollout);
    await steps.turn(project, name, 'production', 'on');

    const res = await poll(`namePrefix=${name}`);

    expect(res.body.features).toEqual([expect.objectContaining({ name, project, enabled: false, strategies: [] })]);
  });

  it('leaves disabled strategies out, keeps the rest in order with string parameters', async () => {
    const name = await steps.createFeature();
    await steps.addStrategy('default', name, 'development', { ...rollout, parameters: { ...rollout.parameters, rollout: 30 } });
    await steps.addStrategy('default', name, 'development', { name: 'default', disabled: true });
    await steps.addStrategy('default', name, 'development', { name: 'userWithId', parameters: { userIds: 'a,b' } });
    await steps.turn('default', name, 'development', 'on');

    const { body } = await poll(`namePrefix=${name}`);

    expect(body.features[0].strategies).toEqual([
      { name: 'flexibleRollout', constraints: [], parameters: { rollout: '30', stickiness: 'default', groupId: 'g' }, variants: [] },
      { name: 'userWithId', constraints: [], parameters: { userIds: 'a,b' }, variants: [] },
    ]);
  });

  it('drops an archived feature on the next poll, from E17 and E18 alike', async () => {
    const name = await steps.createFeature();
    const before = await poll(`namePrefix=${name}`);

    await call({ method: 'DELETE', path: steps.base('default', name), token: admin });
    const after = await poll(`namePrefix=${name}`, { 'If-None-Match': before.headers.etag as string });
    const single = await call({ method: 'GET', path: `/api/client/features/${name}`, token: client });

    expect(before.body.features).toHaveLength(1);
    expect(after.status).toBe(200);
    expect(after.body.features).toEqual([]);
    expect(single.status).toBe(404);
  });

  it('serves a dependency as {feature, enabled, variants} and one on a disabled parent without variants', async () => {
    const prefix = unique('dep');
    const parent = await steps.createFeature('default', `${prefix}-parent`);
    const child = await steps.createFeature('default', `${prefix}-child`);
    const other = await steps.createFeature('default', `${prefix}-other`);
    await call({ method: 'POST', path: `${steps.base('default', child)}/dependencies`, token: admin, body: { feature: parent, variants: ['blue'] } });
    await call({ method: 'POST', path: `${steps.base('default', other)}/dependencies`, token: admin, body: { feature: parent, enabled: false } });

    const { body } = await poll(`namePrefix=${prefix}`);
    const byName = Object.fromEntries(body.features.map((f: { name: string }) => [f.name, f]));

    expect(byName[child].dependencies).toEqual([{ feature: parent, enabled: true, variants: ['blue'] }]);
    expect(byName[other].dependencies).toEqual([{ feature: parent, enabled: false }]);
    expect(byName[parent]).not.toHaveProperty('dependencies');
  });
});
