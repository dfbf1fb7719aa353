import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { OpenFeature, type Client } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { formatSecret } from '../../lib/tokens/model.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';

/**
 * OpenFeature's server SDK with its OFREP provider, both as published, against `npm start`: what
 * a Node service that uses OpenFeature instead of an Unleash SDK gets. Every flag is made through
 * the admin API over HTTP; the provider is configured as its README says, with the token as a
 * header (a client token, in Authorization; a second client in X-API-Key).
 */
describe('@openfeature/server-sdk with @openfeature/ofrep-provider against npm start', () => {
  const adminSecret = formatSecret(['*'], '*');
  const project = unique('ofrep-node');
  const flag = (what: string) => `${project}-${what}`;
  let server: StartedServer;
  let client: Client;
  let apiKeyClient: Client;

  beforeAll(async () => {
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('ofrep-node'),
      INIT_ADMIN_API_TOKENS: adminSecret,
    });
    await admin('POST', '/api/admin/projects', { id: project, name: project });
    const strategyPath = (name: string) => `/api/admin/projects/${project}/features/${name}/environments/development/strategies`;
    const create = async (name: string, strategy: Record<string, unknown>, on = true) => {
      await admin('POST', `/api/admin/projects/${project}/features`, { name });
      await admin('POST', strategyPath(name), strategy);
      if (on) await admin('POST', `/api/admin/projects/${project}/features/${name}/environments/development/on`);
    };
    const rollout = (extra: Record<string, unknown> = {}) => ({ name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: 'g' }, ...extra });
    const withPayload = (name: string, type: string, value: string) => rollout({
      variants: [{ name, weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type, value } }],
    });
    await create(flag('on'), rollout());
    await create(flag('off'), rollout(), false);
    await create(flag('for-alice'), rollout({ constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }] }));
    await create(flag('text'), withPayload('blue', 'string', 'sky'));
    await create(flag('json'), withPayload('config', 'json', '{"limit":3}'));
    await create(flag('number'), withPayload('answer', 'number', '42'));
    const token = await admin('POST', '/api/admin/api-tokens', { tokenName: unique('ofrep'), type: 'client', environment: 'development', projects: [project] });

    await OpenFeature.setProviderAndWait('bearer', new OFREPProvider({ baseUrl: server.url, headers: [['Authorization', `Bearer ${token.secret}`]] }));
    await OpenFeature.setProviderAndWait('api-key', new OFREPProvider({ baseUrl: server.url, headers: [['X-API-Key', token.secret]] }));
    client = OpenFeature.getClient('bearer');
    apiKeyClient = OpenFeature.getClient('api-key');
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await OpenFeature.close();
    expect(await server?.stop()).toBe(0);
  });

  const admin = adminOverHttp(() => server.url, adminSecret);

  it('evaluates booleans as Unleash does: on, off (DISABLED), and a user constraint by targetingKey', async () => {
    const on = await client.getBooleanDetails(flag('on'), false, { targetingKey: 'alice' });
    const off = await client.getBooleanDetails(flag('off'), true, { targetingKey: 'alice' });
    const alice = await client.getBooleanDetails(flag('for-alice'), false, { targetingKey: 'alice' });
    const bob = await client.getBooleanDetails(flag('for-alice'), true, { targetingKey: 'bob' });

    expect(on).toMatchObject({ value: true, reason: 'STATIC', flagMetadata: { project, impressionData: false } });
    expect(off).toMatchObject({ value: false, reason: 'DISABLED' });
    expect(alice).toMatchObject({ value: true, reason: 'TARGETING_MATCH' });
    expect(bob).toMatchObject({ value: false, reason: 'DEFAULT' });
    for (const details of [on, off, alice, bob]) expect(details.errorCode).toBeUndefined();
  });

  it('answers typed variant payloads to the matching typed calls, with the variant\'s name', async () => {
    const text = await client.getStringDetails(flag('text'), 'none', { targetingKey: 'alice' });
    const json = await client.getObjectDetails(flag('json'), {}, { targetingKey: 'alice' });
    const number = await client.getNumberDetails(flag('number'), 0, { targetingKey: 'alice' });

    expect(text).toMatchObject({ value: 'sky', variant: 'blue' });
    expect(json).toMatchObject({ value: { limit: 3 }, variant: 'config' });
    expect(number).toMatchObject({ value: 42, variant: 'answer' });
  });

  it('gives the caller\'s default with TYPE_MISMATCH for a typed call the payload does not match', async () => {
    const details = await client.getNumberDetails(flag('text'), 7, { targetingKey: 'alice' });

    expect(details).toMatchObject({ value: 7, reason: 'ERROR', errorCode: 'TYPE_MISMATCH' });
  });

  it('gives the default with FLAG_NOT_FOUND for a flag that does not exist', async () => {
    const details = await client.getBooleanDetails(unique('missing'), true, { targetingKey: 'alice' });

    expect(details).toMatchObject({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' });
  });

  it('gives the default with INVALID_CONTEXT for a context Unleash cannot evaluate (an object attribute)', async () => {
    const details = await client.getBooleanDetails(flag('on'), false, { targetingKey: 'alice', address: { city: 'Oslo' } });

    expect(details).toMatchObject({ value: false, reason: 'ERROR', errorCode: 'INVALID_CONTEXT' });
    expect(details.errorMessage).toContain('address');
  });

  it('authenticates the same token sent as X-API-Key', async () => {
    expect(await apiKeyClient.getBooleanValue(flag('on'), false, { targetingKey: 'alice' })).toBe(true);
  });
});
