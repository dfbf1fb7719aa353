import { beforeAll, describe, expect, it } from 'vitest';
import { CONTEXT_LIMITS } from '../../lib/frontend/context.js';
import { adminSession, apiClient } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { freshInstanceServices, storeAdminToken, unique } from '../support/services.js';
import { formatSecret } from '../../lib/tokens/model.js';

// The Frontend API (issue 15): what browser and mobile SDKs call with a frontend token.
const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

let project: string;
let frontendToken: string;
const flags = { on: '', off: '', forUser: '', withVariant: '', byAddress: '' };

const frontend = (query = '', extra: { token?: string; headers?: Record<string, string> } = {}) =>
  call({ method: 'GET', path: `/api/frontend${query}`, token: extra.token ?? frontendToken, headers: extra.headers });

beforeAll(async () => {
  project = await steps.createProject();
  const name = (what: string) => `${project}-${what}`;
  flags.on = await steps.createFeature(project, name('on'), { impressionData: true });
  flags.off = await steps.createFeature(project, name('off'));
  flags.forUser = await steps.createFeature(project, name('for-user'));
  flags.withVariant = await steps.createFeature(project, name('variant'));
  flags.byAddress = await steps.createFeature(project, name('by-address'));
  for (const flag of [flags.on, flags.off, flags.withVariant]) {
    expect((await steps.addStrategy(project, flag, 'development', { name: 'default', parameters: {} })).status).toBe(200);
  }
  expect((await steps.addStrategy(project, flags.forUser, 'development', {
    name: 'default', parameters: {}, constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice'] }],
  })).status).toBe(200);
  expect((await steps.addStrategy(project, flags.byAddress, 'development', { name: 'remoteAddress', parameters: { IPs: '127.0.0.1' } })).status).toBe(200);
  expect((await steps.putVariants(project, flags.withVariant, 'development', [
    { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default', payload: { type: 'string', value: 'sky' } },
  ])).status).toBe(200);
  for (const flag of [flags.on, flags.forUser, flags.withVariant, flags.byAddress]) {
    expect((await steps.turn(project, flag, 'development', 'on')).status).toBe(200);
  }
  const created = await call({
    method: 'POST', path: '/api/admin/api-tokens', token,
    body: { tokenName: unique('web'), type: 'frontend', environment: 'development', project },
  });
  expect(created.status).toBe(201);
  frontendToken = created.body.secret;
});

const names = (body: { toggles: Array<{ name: string }> }) => body.toggles.map((toggle) => toggle.name).sort();

describe('GET /api/frontend', () => {
  it('lists only the enabled toggles for the context in the query, each with its variant and impression data', async () => {
    const res = await frontend('?userId=alice&appName=web');

    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual([flags.byAddress, flags.forUser, flags.on, flags.withVariant].sort());
    const byName = Object.fromEntries(res.body.toggles.map((toggle: { name: string }) => [toggle.name, toggle]));
    expect(byName[flags.on]).toEqual({
      name: flags.on, enabled: true, impressionData: true,
      variant: { name: 'disabled', enabled: false, feature_enabled: true, featureEnabled: true },
    });
    expect(byName[flags.withVariant].variant).toEqual({
      name: 'blue', enabled: true, payload: { type: 'string', value: 'sky' }, feature_enabled: true, featureEnabled: true,
    });
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('evaluates constraints on the context: another user does not get the user\'s flag', async () => {
    const res = await frontend('?userId=bob');

    expect(names(res.body)).not.toContain(flags.forUser);
    expect(names(res.body)).toContain(flags.on);
  });

  it('takes remoteAddress from the caller when the context leaves it out, and the context\'s when it gives one', async () => {
    expect(names((await frontend()).body)).toContain(flags.byAddress);
    expect(names((await frontend('?remoteAddress=10.0.0.9')).body)).not.toContain(flags.byAddress);
  });

  it('reads custom properties as properties[name]', async () => {
    const res = await frontend('?properties%5Bregion%5D=eu&userId=alice');

    expect(res.status).toBe(200);
    expect(names(res.body)).toContain(flags.forUser);
  });

  it('answers 304 to an unchanged answer for the same context, and the new answer once a flag changes', async () => {
    const first = await frontend('?userId=alice&sessionId=1');
    expect(first.headers.etag).toMatch(/^W\/"/);

    const again = await frontend('?userId=alice&sessionId=1', { headers: { 'If-None-Match': first.headers.etag as string } });
    expect(again.status).toBe(304);

    expect((await steps.turn(project, flags.on, 'development', 'off')).status).toBe(200);
    const changed = await frontend('?userId=alice&sessionId=1', { headers: { 'If-None-Match': first.headers.etag as string } });
    expect(changed.status).toBe(200);
    expect(names(changed.body)).not.toContain(flags.on);
    expect((await steps.turn(project, flags.on, 'development', 'on')).status).toBe(200);
  });

  it('refuses a client token (403), no token (401), and a context too large (400 naming the field)', async () => {
    const client = await call({
      method: 'POST', path: '/api/admin/api-tokens', token, body: { tokenName: unique('sdk'), type: 'client', environment: 'development' },
    });
    const refused = await frontend('', { token: client.body.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('NoAccessError');
    expect((await call({ method: 'GET', path: '/api/frontend' })).status).toBe(401);

    const many = Object.fromEntries(Array.from({ length: CONTEXT_LIMITS.properties + 1 }, (_, i) => [`p${i}`, 'x']));
    const tooMany = await call({ method: 'POST', path: '/api/frontend', token: frontendToken, body: { context: { properties: many } } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ name: 'ValidationError', message: expect.stringContaining('context.properties') });
    const long = await frontend(`?userId=${'u'.repeat(CONTEXT_LIMITS.valueLength + 1)}`);
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('context.userId');
  });
});

describe('POST /api/frontend', () => {
  it('reads the context from the body\'s context, never answering 304', async () => {
    const res = await call({ method: 'POST', path: '/api/frontend', token: frontendToken, body: { context: { userId: 'alice' } } });
    const other = await call({ method: 'POST', path: '/api/frontend', token: frontendToken, body: { context: { userId: 'bob' } } });

    expect(res.status).toBe(200);
    expect(names(res.body)).toContain(flags.forUser);
    expect(names(other.body)).not.toContain(flags.forUser);
    const again = await call({
      method: 'POST', path: '/api/frontend', token: frontendToken, body: { context: { userId: 'alice' } }, headers: { 'If-None-Match': res.headers.etag as string },
    });
    expect(again.status).toBe(200);
  });
});

describe('frontend metrics and registration', () => {
  it('accepts a browser SDK\'s metrics (200) and a registration (200)', async () => {
    const appName = unique('web');
    const metrics = await call({
      method: 'POST', path: '/api/frontend/client/metrics', token: frontendToken,
      body: { appName, instanceId: 'browser', bucket: { start: new Date(Date.now() - 1000).toISOString(), stop: new Date().toISOString(), toggles: { [flags.on]: { yes: 2, no: 0, variants: {} } } } },
    });
    const register = await call({
      method: 'POST', path: '/api/frontend/client/register', token: frontendToken,
      body: { appName, instanceId: 'ios-1', sdkVersion: 'unleash-client-swift:2.1.0', strategies: [], started: new Date().toISOString(), interval: 30000 },
    });

    expect(metrics.status).toBe(200);
    expect(register.status).toBe(200);
    // Both were stored: the counts for the flag, in the token's environment, and the application.
    const day = new Date().toISOString().slice(0, 10);
    expect((await services.metrics.hourlyCounts(day)).filter((count) => count.feature === flags.on)).toEqual([
      expect.objectContaining({ environment: 'development', yes: 2, no: 0 }),
    ]);
    expect(await services.clientApplications.get(appName, { environment: 'development', projects: [project] })).toMatchObject({
      appName, instanceId: 'ios-1', sdkVersion: 'unleash-client-swift:2.1.0',
    });
  });
});

describe('CORS', () => {
  it('allows every origin by default, exposing the ETag', async () => {
    const res = await frontend('', { headers: { Origin: 'https://shop.example.com' } });

    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-expose-headers']).toBe('ETag');
  });

  it('answers preflights without a token, only for the origins set through the admin API, which the UI config shows', async () => {
    const services = await freshInstanceServices();
    const own = apiClient(services);
    const admin = formatSecret(['*'], '*');
    await storeAdminToken(services, admin);
    const preflight = (origin: string) => own({
      method: 'OPTIONS', path: '/api/frontend',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization,if-none-match' },
    });

    const set = await own({ method: 'POST', path: '/api/admin/ui-config/cors', token: admin, body: { frontendApiOrigins: ['https://app.example.com'] } });
    expect(set.status).toBe(204);

    const allowed = await preflight('https://app.example.com');
    expect(allowed.status).toBe(204);
    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-headers': 'authorization,if-none-match',
      'access-control-max-age': '86400',
      vary: 'Origin',
    });
    const refused = await preflight('https://evil.example.com');
    expect(Object.keys(refused.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    expect((await own({ method: 'GET', path: '/api/admin/ui-config', token: admin })).body.frontendApiOrigins).toEqual(['https://app.example.com']);

    const bad = await own({ method: 'POST', path: '/api/admin/ui-config/cors', token: admin, body: { frontendApiOrigins: ['app.example.com/path'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.name).toBe('ValidationError');
  });
});
