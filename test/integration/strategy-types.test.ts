import { describe, expect, it } from 'vitest';
import { unique } from '../support/services.js';
import { adminSession } from '../support/api.js';
import { isolatedServices, sdkToken } from '../support/client.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { DynamoStrategyTypeStore } from '../../lib/strategies/dynamo-store.js';
import { featureSteps } from '../support/features.js';

const { services, call, token } = adminSession();

const newType = (name: string) => ({
  name,
  title: 'Tenant rollout',
  description: 'On for listed tenants',
  parameters: [{ name: 'tenants', type: 'list', description: 'Tenant ids', required: true }],
});

describe('E2 create a strategy type', () => {
  it('answers 201 with the response form and a location header', async () => {
    const name = unique('tenant');

    const res = await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });

    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`strategies/${name}`);
    expect(res.body).toEqual({
      title: 'Tenant rollout',
      name,
      displayName: null,
      description: 'On for listed tenants',
      editable: true,
      deprecated: false,
      parameters: [{ name: 'tenants', type: 'list', description: 'Tenant ids', required: true }],
    });
  });

  it('ignores editable and deprecated in the request, as Unleash does', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/strategies', token,
      body: { ...newType(unique('locked')), editable: false, deprecated: true },
    });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ editable: true, deprecated: false });
  });

  it('refuses a taken name with 409 NameExistsError, built-in names included', async () => {
    const name = unique('dup');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });

    const again = await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });
    const builtIn = await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType('flexibleRollout') });

    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ name: 'NameExistsError', message: `Strategy with name ${name} already exist!` });
    expect(builtIn.status).toBe(409);
  });

  it('lets exactly one of two concurrent creates with the same name win', async () => {
    const name = unique('race');

    const results = await Promise.all(
      [1, 2, 3].map(() => call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) })),
    );

    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.name)).toEqual(['NameExistsError', 'NameExistsError']);
    const listed = await call({ method: 'GET', path: '/api/admin/strategies', token });
    expect(listed.body.strategies.filter((s: { name: string }) => s.name === name)).toHaveLength(1);
  });

  it('answers 400 ValidationError naming each bad property', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/strategies', token,
      body: { name: 'has space', parameters: [{ name: 'p', type: 'colour' }] },
    });

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain('name:');
    expect(res.body.message).toContain('parameters.0.type');
  });

  it('answers 400 when the required parameters list is missing', async () => {
    const res = await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name: unique('bare') } });

    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^parameters:/);
  });

  it('answers 415 ContentTypeerror listing application/json for a non-JSON content type', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/strategies', token, rawBody: 'name=x', headers: { 'Content-Type': 'text/plain' },
    });

    expect(res.status).toBe(415);
    expect(res.body.name).toBe('ContentTypeerror');
    expect(res.body.message).toContain('application/json');
    expect(res.body.message).toContain('text/plain');
  });

  it('answers 400 ValidationError for malformed JSON', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/strategies', token, rawBody: '{"name":', headers: { 'Content-Type': 'application/json' },
    });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ name: 'ValidationError' });
  });
});

describe('E21 deprecate and reactivate', () => {
  it('deprecates with 200 and no body, idempotently, and reactivates', async () => {
    const name = unique('old');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });

    const first = await call({ method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token });
    const second = await call({ method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token });
    const deprecated = await call({ method: 'GET', path: `/api/admin/strategies/${name}`, token });
    const reactivated = await call({ method: 'POST', path: `/api/admin/strategies/${name}/reactivate`, token });
    const active = await call({ method: 'GET', path: `/api/admin/strategies/${name}`, token });

    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.text).toBe('');
    expect(deprecated.body.deprecated).toBe(true);
    expect(reactivated.status).toBe(200);
    expect(active.body.deprecated).toBe(false);
  });

  it('deprecates a built-in type without making it editable', async () => {
    const res = await call({ method: 'POST', path: '/api/admin/strategies/applicationHostname/deprecate', token });
    const after = await call({ method: 'GET', path: '/api/admin/strategies/applicationHostname', token });
    await call({ method: 'POST', path: '/api/admin/strategies/applicationHostname/reactivate', token });

    expect(res.status).toBe(200);
    expect(after.body).toMatchObject({ name: 'applicationHostname', deprecated: true, editable: false, displayName: 'Hosts' });
  });

  it('answers 404 NotFoundError for an unknown strategy type', async () => {
    const res = await call({ method: 'POST', path: `/api/admin/strategies/${unique('ghost')}/deprecate`, token });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
  });

  it('accepts any content type, since the route takes no body', async () => {
    const name = unique('ct');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });

    const res = await call({
      method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token, rawBody: 'x', headers: { 'Content-Type': 'text/plain' },
    });

    expect(res.status).toBe(200);
    // Deprecated, as without the body.
    expect((await call({ method: 'GET', path: `/api/admin/strategies/${name}`, token })).body).toMatchObject({ name, deprecated: true });
  });
});

describe('listing, reading and updating strategy types', () => {
  it('lists the built-in types from the first start, then custom types, as {version: 1, strategies}', async () => {
    const name = unique('zz-listed');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });

    const res = await call({ method: 'GET', path: '/api/admin/strategies', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const names: string[] = res.body.strategies.map((s: { name: string }) => s.name);
    expect(names.slice(0, 5)).toEqual(['flexibleRollout', 'default', 'userWithId', 'remoteAddress', 'applicationHostname']);
    expect(names).toContain(name);
    const builtIns = res.body.strategies.slice(0, 5);
    expect(builtIns.every((s: { editable: boolean }) => s.editable === false)).toBe(true);
  });

  it('replaces a custom type with PUT and keeps its deprecated state', async () => {
    const name = unique('edit');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) });
    await call({ method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token });

    const res = await call({
      method: 'PUT', path: `/api/admin/strategies/${name}`, token,
      body: { name, description: 'changed', parameters: [] },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name, description: 'changed', parameters: [], deprecated: true, title: null });
  });

  it('refuses to edit a built-in type, a renamed body, or an unknown type', async () => {
    const defaultBefore = (await call({ method: 'GET', path: '/api/admin/strategies/default', token })).body;
    const builtIn = await call({ method: 'PUT', path: '/api/admin/strategies/default', token, body: { parameters: [] } });
    const name = unique('rename');
    const created = (await call({ method: 'POST', path: '/api/admin/strategies', token, body: newType(name) })).body;
    const renamed = await call({
      method: 'PUT', path: `/api/admin/strategies/${name}`, token, body: { name: 'other', parameters: [] },
    });
    const nope = unique('nope');
    const unknown = await call({ method: 'PUT', path: `/api/admin/strategies/${nope}`, token, body: { parameters: [] } });

    expect(builtIn.status).toBe(400);
    expect(builtIn.body).toMatchObject({ name: 'ValidationError', message: 'name: default is a built-in strategy type and cannot be edited' });
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({ name: 'ValidationError', message: `name: must match the strategy type in the path (${name})` });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ name: 'NotFoundError', message: `Could not find strategy with name ${nope}` });
    // None of them wrote: both types read as before, and the unknown one was not made.
    expect((await call({ method: 'GET', path: '/api/admin/strategies/default', token })).body).toEqual(defaultBefore);
    expect((await call({ method: 'GET', path: `/api/admin/strategies/${name}`, token })).body).toEqual(created);
    expect((await call({ method: 'GET', path: `/api/admin/strategies/${nope}`, token })).status).toBe(404);
  });
});

describe('the gradualRollout strategy types SDKs still evaluate', () => {
  const percentage = { name: 'percentage', type: 'percentage', description: expect.any(String), required: false };
  const groupId = { name: 'groupId', type: 'string', description: expect.any(String), required: true };

  it.each([
    ['gradualRolloutUserId', [percentage, groupId]],
    ['gradualRolloutSessionId', [percentage, groupId]],
    ['gradualRolloutRandom', [percentage]],
  ])('lists %s as a deprecated built-in type with Unleash\'s parameters', async (name, parameters) => {
    const res = await call({ method: 'GET', path: '/api/admin/strategies', token });

    const listed = res.body.strategies.find((type: { name: string }) => type.name === name);
    expect(listed).toMatchObject({ name, editable: false, deprecated: true, parameters });
    expect((await call({ method: 'PUT', path: `/api/admin/strategies/${name}`, token, body: { parameters: [] } })).status).toBe(400);
  });

  it('lets a feature use them, and the SDK payload carries them with their parameters', async () => {
    const steps = featureSteps(call, token);
    const feature = await steps.createFeature();

    const added = await Promise.all([
      steps.addStrategy('default', feature, 'development', { name: 'gradualRolloutUserId', parameters: { percentage: '30', groupId: 'g' } }),
      steps.addStrategy('default', feature, 'development', { name: 'gradualRolloutSessionId', parameters: { percentage: '40', groupId: 'g' } }),
      steps.addStrategy('default', feature, 'development', { name: 'gradualRolloutRandom', parameters: { percentage: '50' } }),
    ].map(async (pending) => (await pending).status));
    const payload = await call({ method: 'GET', path: '/api/client/features', token: await sdkToken(services) });

    expect(added).toEqual([200, 200, 200]);
    const served = payload.body.features.find((candidate: { name: string }) => candidate.name === feature);
    expect(served.strategies.map((strategy: { name: string; parameters: unknown }) => [strategy.name, strategy.parameters]).sort()).toEqual([
      ['gradualRolloutRandom', { percentage: '50' }],
      ['gradualRolloutSessionId', { percentage: '40', groupId: 'g' }],
      ['gradualRolloutUserId', { percentage: '30', groupId: 'g' }],
    ]);
  });

  it('shadow a custom type made under the same name before they were built in, listing the name once', async () => {
    const isolated = await isolatedServices();
    const { region, dynamodbEndpoint: endpoint, tableName } = isolated.config;
    const legacy = { name: 'gradualRolloutRandom', title: null, displayName: null, description: 'made by hand', editable: true, deprecated: false, parameters: [], sortOrder: 9999 };
    await new DynamoStrategyTypeStore(createDocumentClient({ region, endpoint }), tableName).insert(legacy);

    const listed = (await isolated.strategyTypes.list()).filter((type) => type.name === 'gradualRolloutRandom');

    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ editable: false, deprecated: true });
  });
});
