import { describe, expect, it } from 'vitest';
import { meSchema, sessionUserSchema } from '../../lib/auth/schemas.js';
import { LOGIN_FAILURES_BEFORE_WAIT } from '../../lib/auth/model.js';
import { SESSION_TTL_MS } from '../../lib/sessions/model.js';
import { apiClient } from '../support/api.js';
import { captureLogs } from '../support/logs.js';
import { adminToken, testConfig, unique, servicesOn } from '../support/services.js';

import { cookiePair, GOOD_PASSWORD, logIn, userWithPassword } from '../support/sessions.js';

/** The services' clock: tests move it instead of waiting. */
let now = new Date();
const services = servicesOn(testConfig(), { now: () => now });
const call = apiClient(services);

const login = (username: string, password: string) => call({ method: 'POST', path: '/auth/simple/login', body: { username, password } });
const me = (cookie?: string) => call({ method: 'GET', path: '/api/admin/user', headers: cookie ? { Cookie: cookie } : {} });

describe('POST /auth/simple/login', () => {
  it('answers the user and sets an HttpOnly, SameSite=Lax session cookie; seenAt is the login time', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Editor');

    const res = await login(user.username as string, GOOD_PASSWORD);

    expect(res.status).toBe(200);
    expect(sessionUserSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ id: user.id, username: user.username, loginAttempts: 0, seenAt: now.toISOString(), rootRole: 2 });
    const cookie = res.headers['set-cookie'] as string;
    expect(cookie).toMatch(/^unleash-session=\d+\.[A-Za-z0-9_-]{43}; Path=\/; Max-Age=172800; HttpOnly; SameSite=Lax$/);
    expect((await services.users.get(user.id)).seenAt).toBe(now.toISOString());
  });

  it('takes the e-mail in any letter case instead of the username', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const res = await login((user.email as string).toUpperCase(), GOOD_PASSWORD);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username: user.username });
    // The cookie it sets is a session of that user.
    expect((await me(cookiePair(res.headers['set-cookie']))).body.user).toMatchObject({ id: user.id });
  });

  it('answers the same 401 for a wrong password and an unknown user, and counts loginAttempts', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const wrong = await login(user.username as string, 'Wrong-password-1');
    const unknown = await login(unique('nobody'), 'Wrong-password-1');

    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe(unknown.body.message);
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await services.users.get(user.id)).loginAttempts).toBe(1);
  });

  it('after 10 failures in a row makes the next login wait a minute (429), then lets the right password in and resets the count', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    for (let i = 0; i < LOGIN_FAILURES_BEFORE_WAIT; i += 1) expect((await login(user.username as string, 'Wrong-password-1')).status).toBe(401);

    const locked = await login(user.username as string, GOOD_PASSWORD);
    now = new Date(now.getTime() + 61_000);
    const later = await login(user.username as string, GOOD_PASSWORD);

    expect(locked.status).toBe(429);
    expect(locked.body.name).toBe('RateLimitError');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(later.status).toBe(200);
    expect((await services.users.get(user.id)).loginAttempts).toBe(0);
  });

  it("an admin's new password leaves the address's wait as it was (a minute here): then the new password logs in", async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    for (let i = 0; i < LOGIN_FAILURES_BEFORE_WAIT; i += 1) expect((await login(user.username as string, 'Wrong-password-1')).status).toBe(401);

    await services.auth.setPasswordFor(user.id, 'Another-Good-Pass-8');
    const waiting = await login(user.username as string, 'Another-Good-Pass-8');
    now = new Date(now.getTime() + 61_000);
    const after = await login(user.username as string, 'Another-Good-Pass-8');

    expect(waiting.status).toBe(429);
    expect(waiting.body.name).toBe('RateLimitError');
    expect(waiting.headers['set-cookie']).toBeUndefined();
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: user.id, loginAttempts: 0 });
    expect(after.headers['set-cookie']).toMatch(/^unleash-session=/);
  });

  it("logs in a user whose username holds an '@' but is no one's e-mail", async () => {
    const username = `${unique('at')}@team`;
    const user = await services.users.create({ username, email: null, name: username, rootRole: 'Viewer', password: GOOD_PASSWORD }, 'test');

    const res = await login(username, GOOD_PASSWORD);

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, username });
    expect((await me(cookiePair(res.headers['set-cookie']))).body.user).toMatchObject({ id: user.id, username });
  });

  it('refuses a body without a password with 400 naming it', async () => {
    const res = await call({ method: 'POST', path: '/auth/simple/login', body: { username: 'someone' } });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('password');
  });

  it('never puts the password or its hash in an answer or a log line', async () => {
    const password = `Secret-${unique('pw')}-9`;
    const logs = captureLogs();
    try {
      const created = await call({
        method: 'POST', path: '/api/admin/user-admin', token: await adminToken(services),
        body: { username: unique('logged'), rootRole: 'Viewer', password },
      });
      const good = await login(created.body.username, password);
      const bad = await login(created.body.username, `${password}x`);
      const list = await call({ method: 'GET', path: '/api/admin/user-admin', token: await adminToken(services) });

      for (const res of [created, good, bad, list]) expect(res.text).not.toMatch(/Secret-|scrypt\$/);
      expect(logs.text()).not.toContain(password);
    } finally {
      logs.restore();
    }
  });
});

describe('GET /api/admin/user', () => {
  it('without a session answers 401 with the login form to show, as Unleash does', async () => {
    const res = await me();

    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ name: 'AuthenticationRequired', type: 'password', path: '/auth/simple/login', defaultHidden: false });
  });

  it('with a session answers the user, their root role\'s permissions, feedback and splash', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Admin');
    const cookie = await logIn(call, user.username as string);

    const res = await me(cookie);

    expect(res.status).toBe(200);
    expect(meSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({ user: { id: user.id, username: user.username }, permissions: [{ permission: 'ADMIN' }], feedback: [], splash: {} });
  });

  it('with an admin token answers a synthetic user holding ADMIN, without the secret', async () => {
    const token = await adminToken(services);

    const res = await call({ method: 'GET', path: '/api/admin/user', token });

    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual([{ permission: 'ADMIN' }]);
    expect(res.text).not.toContain(token.split('.')[1]);
  });

  it('answers 401 once the session is past its TTL (the clock moves, nothing sleeps)', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);

    now = new Date(now.getTime() + SESSION_TTL_MS - 1000);
    const before = await me(cookie);
    now = new Date(now.getTime() + 2000);
    const after = await me(cookie);

    expect(before.status).toBe(200);
    expect(before.body.user).toMatchObject({ id: user.id });
    expect(after.status).toBe(401);
    expect(after.body.name).toBe('AuthenticationRequired');
    expect(after.body.user).toBeUndefined();
  });

  it('answers 401 for a made-up cookie', async () => {
    const res = await me(`unleash-session=1.${'A'.repeat(43)}`);

    expect(res.status).toBe(401);
    expect(res.body.name).toBe('AuthenticationRequired');
    expect(res.body.user).toBeUndefined();
  });
});

describe('logout', () => {
  /** What the admin UI's logout form sends (a same-origin form POST), and a same-origin link. */
  const fromTheUi = { Origin: 'http://localhost:4242', 'Sec-Fetch-Site': 'same-origin' };

  it.each([
    ['POST', fromTheUi],
    ['GET', { 'Sec-Fetch-Site': 'same-origin' }],
    ['GET', { 'Sec-Fetch-Site': 'none' }],
    // A browser that sends no Sec-Fetch-Site, following a link on the service's own page.
    ['GET', { Referer: 'http://localhost:4242/admin/users' }],
    ['POST', {}],
  ])("%s /logout (%o) ends the caller's session only, clears the cookie and redirects to the signed-out page", async (method, headers) => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);
    const otherDevice = await logIn(call, user.username as string);

    const res = await call({ method, path: '/logout', headers: { Cookie: cookie, ...headers } });

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/signed-out');
    expect(res.headers['set-cookie']).toMatch(/^unleash-session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
    expect((await me(cookie)).status).toBe(401);
    // Another device's session is the person's own business: a password change ends it.
    expect((await me(otherDevice)).status).toBe(200);
  });

  it.each([
    ["another site's link or image (Sec-Fetch-Site: cross-site)", { 'Sec-Fetch-Site': 'cross-site' }],
    ['a sibling site (Sec-Fetch-Site: same-site)', { 'Sec-Fetch-Site': 'same-site' }],
    ["another site's page that sends Origin", { Origin: 'https://evil.example' }],
    ["another site's link in a browser without Sec-Fetch-Site (Referer: that site)", { Referer: 'https://evil.example/page' }],
    ['a browser without Sec-Fetch-Site that sends no Referer', {}],
    ['a Referer that only starts like an own origin', { Referer: 'http://localhost:4242.evil.example/' }],
  ])('a GET /logout from %s ends nothing: it goes to the UI, the cookie kept', async (_from, headers) => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);

    const res = await call({ method: 'GET', path: '/logout', headers: { Cookie: cookie, ...headers } });

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['clear-site-data']).toBeUndefined();
    expect((await me(cookie)).status).toBe(200);
  });

  it('a POST /logout from another site is refused with 403 and ends nothing', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);

    const res = await call({ method: 'POST', path: '/logout', headers: { Cookie: cookie, Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } });

    expect(res.status).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await me(cookie)).status).toBe(200);
  });

  it('a made-up cookie naming a user ends none of their sessions', async () => {
    now = new Date();
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);

    await call({ method: 'POST', path: '/logout', headers: { Cookie: `unleash-session=${user.id}.${'B'.repeat(43)}` } });

    const still = await me(cookie);
    expect(still.status).toBe(200);
    expect(still.body.user).toMatchObject({ id: user.id });
  });
});
