import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { adminToken, freshInstanceServices, unique } from '../support/services.js';

// The Frontend API's CORS over the frontend function's handler: credentials are offered only to
// an origin the list names, never with `*`, and an answer a list decides says it varies on Origin.
let call: ReturnType<typeof apiClient>;
let admin: string;
let frontendToken: string;

const fromPage = (origin: string | undefined, method: 'GET' | 'OPTIONS' = 'GET') => call({
  method, path: '/api/frontend', token: method === 'GET' ? frontendToken : undefined,
  headers: {
    ...(origin ? { Origin: origin } : {}),
    ...(method === 'OPTIONS' ? { 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' } : {}),
  },
});
const corsNames = (headers: Record<string, string>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

beforeAll(async () => {
  // A table of its own: the allowed list is instance-wide, and other files read the default.
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

describe('the Frontend API answers browsers', () => {
  it('by default, any origin with `*`, no credentials and no Vary, the flags still served', async () => {
    const get = await fromPage('https://shop.example.com');
    const preflight = await fromPage('https://shop.example.com', 'OPTIONS');

    expect(get.status).toBe(200);
    expect(get.body.toggles).toEqual(expect.any(Array));
    for (const res of [get, preflight]) {
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers).not.toHaveProperty('access-control-allow-credentials');
      expect(res.headers).not.toHaveProperty('vary');
    }
    expect(preflight.headers['access-control-allow-headers']).toBe('authorization');
  });

  it('once a list is set, its origins by name with credentials, and every answer varies on Origin', async () => {
    const set = await call({ method: 'POST', path: '/api/admin/ui-config/cors', token: admin, body: { frontendApiOrigins: ['https://app.example.com'] } });
    expect(set.status).toBe(204);

    const allowed = await fromPage('https://app.example.com');
    const refused = await fromPage('https://evil.example.com');
    const noOrigin = await fromPage(undefined);

    expect(allowed.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'ETag',
      vary: 'Origin',
    });
    for (const res of [refused, noOrigin]) {
      expect(res.status).toBe(200);
      expect(corsNames(res.headers)).toEqual([]);
      expect(res.headers.vary).toBe('Origin');
    }
  });
});
