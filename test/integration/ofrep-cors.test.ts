import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { adminToken, freshInstanceServices, unique } from '../support/services.js';

// OFREP from browsers (the web provider) under the Frontend API's origins: the same list, the
// same headers, on a table of its own (the list is instance-wide; other files read the default).
let call: ReturnType<typeof apiClient>;
let admin: string;
let frontendToken: string;

const fromPage = (origin: string | undefined, method: 'POST' | 'OPTIONS' = 'POST', path = '/ofrep/v1/evaluate/flags') => call({
  method, path, ...(method === 'POST' ? { token: frontendToken, body: { context: { targetingKey: 'alice' } } } : {}),
  headers: {
    ...(origin ? { Origin: origin } : {}),
    ...(method === 'OPTIONS' ? { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type,if-none-match' } : {}),
  },
});

beforeAll(async () => {
  const services = await freshInstanceServices();
  call = apiClient(services);
  admin = await adminToken(services);
  const created = await call({
    method: 'POST', path: '/api/admin/api-tokens', token: admin,
    body: { tokenName: unique('web'), type: 'frontend', environment: 'development', projects: ['*'] },
  });
  expect(created.status).toBe(201);
  frontendToken = created.body.secret;
});

describe('OFREP answers browsers as the Frontend API does', () => {
  it('by default, any origin with `*`, the ETag exposed, preflights of both paths answered without a token', async () => {
    const bulk = await fromPage('https://shop.example.com');
    const preflight = await fromPage('https://shop.example.com', 'OPTIONS');
    const flagPreflight = await fromPage('https://shop.example.com', 'OPTIONS', '/ofrep/v1/evaluate/flags/some-flag');

    expect(bulk.status).toBe(200);
    expect(bulk.body.flags).toEqual(expect.any(Array));
    expect(bulk.headers['access-control-expose-headers']).toBe('ETag');
    for (const res of [bulk, preflight, flagPreflight]) expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization,content-type,if-none-match');
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
  });

  it('once a list is set, its origins by name with credentials, others without any CORS header, errors included', async () => {
    const set = await call({ method: 'POST', path: '/api/admin/ui-config/cors', token: admin, body: { frontendApiOrigins: ['https://app.example.com'] } });
    expect(set.status).toBe(204);

    const allowed = await fromPage('https://app.example.com');
    const refused = await fromPage('https://evil.example.com');
    const refusedPreflight = await fromPage('https://evil.example.com', 'OPTIONS');
    const unauthorized = await call({ method: 'POST', path: '/ofrep/v1/evaluate/flags', body: { context: {} }, headers: { Origin: 'https://app.example.com' } });

    expect(allowed.headers).toMatchObject({ 'access-control-allow-origin': 'https://app.example.com', 'access-control-allow-credentials': 'true', vary: 'Origin' });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe('https://app.example.com');
    for (const res of [refused, refusedPreflight]) {
      expect(Object.keys(res.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(res.headers.vary).toBe('Origin');
    }
    // The server still answers; it is the browser that refuses to hand the answer to the page.
    expect(refused.status).toBe(200);
  });
});
