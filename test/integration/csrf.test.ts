import { beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../support/api.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

const UNLEASH_URL = 'https://flags.example.com';
/** The admin UI on CloudFront while UNLEASH_URL names a custom domain of the API (the stack sets ADMIN_UI_URL). */
const ADMIN_UI_URL = 'https://d111111abcdef8.cloudfront.net';
const services = testServices({ UNLEASH_URL, ADMIN_UI_URL });
const call = apiClient(services);
let cookie: string;

beforeAll(async () => {
  cookie = await logIn(call, (await userWithPassword(services, 'Admin')).username as string);
});

const createContextField = (headers: Record<string, string>, token?: string) =>
  call({ method: 'POST', path: '/api/admin/context', headers, token, body: { name: unique('ctx') } });

describe('a change carried by the session cookie alone', () => {
  it('from another site (a form POST: Origin of that site, Sec-Fetch-Site cross-site) is refused with 403', async () => {
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'NoAccessError' });
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
  });

  it('from another site that sends only Origin is refused too', async () => {
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example' });

    expect(res.status).toBe(403);
  });

  it('from a sibling site (same-site, another origin) is refused', async () => {
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.flags.example.com', 'Sec-Fetch-Site': 'same-site' });

    expect(res.status).toBe(403);
  });

  it.each([
    ['the public origin (UNLEASH_URL)', { Origin: UNLEASH_URL, 'Sec-Fetch-Site': 'same-origin' }],
    ["the admin UI's origin (ADMIN_UI_URL)", { Origin: ADMIN_UI_URL, 'Sec-Fetch-Site': 'same-origin', Host: 'abc123.execute-api.eu-west-1.amazonaws.com' }],
    ['no browser headers at all (not a page)', {}],
  ])('from %s is allowed', async (_name, headers) => {
    const res = await createContextField({ Cookie: cookie, ...headers });

    expect(res.status).toBe(201);
  });

  it.each([
    ['another site, with an X-Forwarded-Host that matches it', { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example' }],
    ['another site, with a Host that matches it', { Origin: 'http://api.internal:4242', Host: 'api.internal:4242' }],
    ['the same host over http instead of https', { Origin: 'http://flags.example.com', Host: 'flags.example.com' }],
    ['the same host on another port', { Origin: 'https://flags.example.com:8443', Host: 'flags.example.com:8443' }],
  ])('from %s is refused: only the configured origins count, never a header the client sets', async (_name, headers) => {
    const name = unique('ctx');

    const res = await call({ method: 'POST', path: '/api/admin/context', headers: { Cookie: cookie, ...headers }, body: { name } });

    expect(res.status).toBe(403);
    expect((await call({ method: 'GET', path: `/api/admin/context/${name}`, headers: { Cookie: cookie } })).status).toBe(404);
  });

  it('reads from another site are left alone (GET changes nothing)', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/context', headers: { Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });

    expect(res.status).toBe(200);
  });

  it('a login posted from another site whose X-Forwarded-Host matches it is refused', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const res = await call({
      method: 'POST', path: '/auth/simple/login', headers: { Origin: 'https://evil.example', 'X-Forwarded-Host': 'evil.example' },
      body: { username: user.username, password: 'Correct-Horse-7-Battery' },
    });

    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a login posted from another site is refused', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const res = await call({
      method: 'POST', path: '/auth/simple/login', headers: { Origin: 'https://evil.example' },
      body: { username: user.username, password: 'Correct-Horse-7-Battery' },
    });

    expect(res.status).toBe(403);
  });
});

describe('a change authenticated by an API token', () => {
  it('is allowed from anywhere, cookie or not', async () => {
    const token = await adminToken(services);

    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, token);

    expect(res.status).toBe(201);
  });
});

describe('on a laptop (npm start: UNLEASH_URL http://localhost:<port>, the server on 127.0.0.1:<port>)', () => {
  const local = testServices({ UNLEASH_URL: 'http://localhost:4242' });
  const localCall = apiClient(local);

  it.each([
    ['http://localhost:4242', 201],
    ['http://127.0.0.1:4242', 201],
    ['http://127.0.0.1:4343', 403],
    ['https://localhost:4242', 403],
    ['http://evil.localhost:4242', 403],
  ])('a change from %s answers %i', async (origin, status) => {
    const session = await logIn(localCall, (await userWithPassword(local, 'Admin')).username as string);

    const res = await localCall({ method: 'POST', path: '/api/admin/context', headers: { Cookie: session, Origin: origin }, body: { name: unique('ctx') } });

    expect(res.status).toBe(status);
  });
});
