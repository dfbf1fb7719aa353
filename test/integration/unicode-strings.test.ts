import { describe, expect, it } from 'vitest';
import { functionDefinitions } from '../../functions/registry.js';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { adminSession, type ApiResponse } from '../support/api.js';
import { sdkToken } from '../support/client.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

/** A lone high surrogate: a JSON string may spell it (`"\ud800"`), but it is not Unicode text. */
const LONE = '\ud800';

function expectRefused(res: ApiResponse, field: RegExp): void {
  expect(res.status, res.text).toBe(400);
  expect(res.body.name).toBe('ValidationError');
  expect(res.body.message).toMatch(field);
}

describe('strings that are not well-formed Unicode', () => {
  it('refuses a feature name with a lone surrogate with 400 naming the field, and creates nothing', async () => {
    const name = `${unique('lone')}${LONE}`;

    const res = await call({ method: 'POST', path: '/api/admin/projects/default/features', token, body: { name } });

    expectRefused(res, /^name: /);
    const listed = await call({ method: 'GET', path: '/api/admin/projects/default/features', token });
    expect(listed.body.features.map((f: { name: string }) => f.name)).not.toContain(name);
  });

  it('refuses a lone surrogate in a feature description, naming the field', async () => {
    const res = await call({
      method: 'POST', path: '/api/admin/projects/default/features', token,
      body: { name: unique('lone-desc'), description: `broken ${LONE} text` },
    });

    expectRefused(res, /^description: /);
  });

  it('refuses a strategy type (E2) whose name or parameter text has a lone surrogate', async () => {
    const byName = await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name: `${unique('st')}${LONE}`, parameters: [] } });
    const byParameter = await call({
      method: 'POST', path: '/api/admin/strategies', token,
      body: { name: unique('st'), parameters: [{ name: 'p', type: 'string', description: `x${LONE}`, required: false }] },
    });

    expectRefused(byName, /^name: /);
    expectRefused(byParameter, /^parameters\.0\.description: /);
  });

  it('refuses variant names with a lone surrogate in E12, inside a patch value, naming where it is', async () => {
    const feature = await steps.createFeature();
    const variant = { name: `v${LONE}`, weight: 1000, weightType: 'variable', stickiness: 'default' };

    const res = await call({
      method: 'PATCH', path: `${steps.base('default', feature)}/variants`, token,
      body: [{ op: 'add', path: '/-', value: variant }],
    });

    expectRefused(res, /^0\.value\.name: /);
    const after = await steps.getFeature('default', feature);
    expect(after.body.variants ?? []).toEqual([]);
  });

  it('refuses a lone surrogate in an object key, naming the key', async () => {
    const feature = await steps.createFeature();

    const res = await steps.addStrategy('default', feature, 'development', { name: 'default', parameters: { [`k${LONE}`]: 'v' } });

    expectRefused(res, /^parameters: /);
  });

  it('refuses a lone surrogate in a query string value, naming the parameter', async () => {
    // An HTTP query string cannot carry one (the URL decoder makes it U+FFFD), a direct invoke can.
    const handler = groupHandlerOf(functionDefinitions['client'], services.composition);
    const event = toApiGatewayEvent({
      method: 'GET', url: '/api/client/features?namePrefix=x', headers: { authorization: await sdkToken(services) },
      body: Buffer.alloc(0), routeKey: 'GET /api/client/features', pathParameters: {}, sourceIp: '127.0.0.1',
    });

    const res = (await handler({ ...event, queryStringParameters: { namePrefix: `x${LONE}` } }, localContext('test'))) as { statusCode: number; body: string };

    expect(res.statusCode, res.body).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ name: 'ValidationError', message: expect.stringMatching(/^namePrefix: /) });
  });

  it('refuses a lone surrogate in a path parameter, naming the parameter', async () => {
    const res = await call({ method: 'GET', path: `/api/admin/projects/default/features/x${LONE}`, token });

    expectRefused(res, /^featureName: /);
  });

  it('still takes well-formed text outside the Basic Multilingual Plane (surrogate pairs)', async () => {
    const name = unique('emoji');

    const res = await call({
      method: 'POST', path: '/api/admin/projects/default/features', token, body: { name, description: 'flags 🚩 and 𝔘' },
    });

    expect(res.status, res.text).toBe(201);
    expect(res.body.description).toBe('flags 🚩 and 𝔘');
  });

  it('keeps the SDK report routes at 202 and stores U+FFFD in place of a lone surrogate', async () => {
    const client = await sdkToken(services);
    const appName = unique('app');

    const res = await call({
      method: 'POST', path: '/api/client/register', token: client,
      body: { appName, instanceId: `i${LONE}`, sdkVersion: 'unleash-node-sdk:6.12.1', strategies: [], started: new Date().toISOString(), interval: 1000 },
    });

    expect(res.status, res.text).toBe(202);
    expect(await services.clientApplications.get(appName)).toMatchObject({ instanceId: 'i\uFFFD' });
  });
});
