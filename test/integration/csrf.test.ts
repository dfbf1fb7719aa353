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

const createContextField = (headers: Record<string, string>, token?: string, name = unique('ctx')) =>
  call({ method: 'POST', path: '/api/admin/context', headers, token, body: { name } });

/** Whether a context field is stored, read with the session (a read is never refused as cross-site). */
const fieldStatus = async (name: string, through = call, session = cookie) =>
  (await through({ method: 'GET', path: `/api/admin/context/${name}`, headers: { Cookie: session } })).status;

const CROSS_SITE_MESSAGE = 'came from another site with your session cookie';

describe('a change carried by the session cookie alone', () => {
  it('from another site (a form POST: Origin of that site, Sec-Fetch-Site cross-site) is refused with 403', async () => {
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' });

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'NoAccessError' });
    expect(Object.keys(res.body).sort()).toEqual(['id', 'message', 'name']);
  });

  it('from another site that sends only Origin is refused too', async () => {
    const name = unique('ctx');
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example' }, undefined, name);

    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain(CROSS_SITE_MESSAGE);
    expect(await fieldStatus(name)).toBe(404);
  });

  it('from a sibling site (same-site, another origin) is refused', async () => {
    const name = unique('ctx');
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.flags.example.com', 'Sec-Fetch-Site': 'same-site' }, undefined, name);

    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain(CROSS_SITE_MESSAGE);
    expect(await fieldStatus(name)).toBe(404);
  });

  it.each([
    ['the public origin (UNLEASH_URL)', { Origin: UNLEASH_URL, 'Sec-Fetch-Site': 'same-origin' }],
    ["the admin UI's origin (ADMIN_UI_URL)", { Origin: ADMIN_UI_URL, 'Sec-Fetch-Site': 'same-origin', Host: 'abc123.execute-api.eu-west-1.amazonaws.com' }],
    ['no browser headers at all (not a page)', {}],
  ])('from %s is allowed', async (_name, headers) => {
    const name = unique('ctx');
    const res = await createContextField({ Cookie: cookie, ...headers }, undefined, name);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name });
    expect(await fieldStatus(name)).toBe(200);
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
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain(CROSS_SITE_MESSAGE);
    expect((await call({ method: 'GET', path: `/api/admin/context/${name}`, headers: { Cookie: cookie } })).status).toBe(404);
  });

  it('reads from another site are left alone (GET changes nothing)', async () => {
    const name = unique('ctx');
    await createContextField({ Cookie: cookie }, undefined, name);

    const res = await call({ method: 'GET', path: '/api/admin/context', headers: { Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });

    expect(res.status).toBe(200);
    expect(res.body.map((field: { name: string }) => field.name)).toContain(name);
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
    expect(res.body.name).toBe('NoAccessError');
    expect(res.body.message).toContain('Log in from the pages of this service');
    expect(res.cookies).toEqual([]);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});

describe('a change authenticated by an API token', () => {
  it('is allowed from anywhere, cookie or not', async () => {
    const token = await adminToken(services);

    const name = unique('ctx');
    const res = await createContextField({ Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, token, name);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name });
    expect(await fieldStatus(name)).toBe(200);
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

    const name = unique('ctx');
    const res = await localCall({ method: 'POST', path: '/api/admin/context', headers: { Cookie: session, Origin: origin }, body: { name } });

    expect(res.status).toBe(status);
    expect(res.body.name).toBe(status === 201 ? name : 'NoAccessError');
    expect(await fieldStatus(name, localCall, session)).toBe(status === 201 ? 200 : 404);
  });
});
