import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../support/api.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { cookiePair, GOOD_PASSWORD, logIn, userWithPassword } from '../support/sessions.js';
import type { User } from '../../lib/users/model.js';

const UNLEASH_URL = 'https://flags.example.com';
const services = testServices({ UNLEASH_URL });
const call = apiClient(services);
let token: string;

beforeAll(async () => {
  token = await adminToken(services);
});

const me = (cookie: string) => call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookie } });
const login = (username: string, password: string) => call({ method: 'POST', path: '/auth/simple/login', body: { username, password } });
/** An admin's reset link for the user; answers the link's secret. */
const resetLink = async (userId: number): Promise<string> => {
  const link = await call({ method: 'POST', path: '/api/admin/user-admin/reset-password', token, body: { id: String(userId) } });
  expect(link.status).toBe(200);
  return new URL(link.body.resetPasswordUrl).searchParams.get('token') as string;
};
const resetWith = (secret: string, password: string) => call({ method: 'POST', path: '/auth/reset/password', body: { token: secret, password } });
/** A reset link refused as no longer valid: the error names the token, and no session is set. */
const expectLinkRefused = (res: Awaited<ReturnType<typeof call>>) => {
  expect(res.status).toBe(401);
  expect(res.body.name).toBe('AuthenticationRequired');
  expect(res.body.message).toMatch(/^token: this reset link is not valid/);
  expect(res.headers['set-cookie']).toBeUndefined();
};
/** A login with `password` refused (401) or answered as `user` with a session. */
const expectLogin = async (user: User, password: string, works: boolean) => {
  const res = await login(user.username as string, password);
  expect(res.status).toBe(works ? 200 : 401);
  if (works) expect(res.body).toMatchObject({ id: user.id });
  else expect(res.body.name).toBe('AuthenticationRequired');
};

describe('signing up through an invite link', () => {
  it('creates a Viewer with the password and logs them in', async () => {
    const invite = (await call({ method: 'POST', path: '/api/admin/invite-link/tokens', token, body: { name: unique('invite'), expiresAt: '2099-01-01T00:00:00Z' } })).body;
    const email = `${unique('grace')}@example.com`;

    const valid = await call({ method: 'GET', path: `/invite/${invite.secret}/validate` });
    const res = await call({ method: 'POST', path: `/invite/${invite.secret}/signup`, body: { name: 'Grace', email, password: GOOD_PASSWORD } });
    const session = await me(cookiePair(res.headers['set-cookie']));

    expect(valid.status).toBe(200);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, name: 'Grace', rootRole: 3 });
    expect(session.status).toBe(200);
    expect(session.body.user.email).toBe(email);
    expect((await login(email, GOOD_PASSWORD)).status).toBe(200);
  });

  it('refuses a closed or unknown link with 400, and a weak password with 400 naming password', async () => {
    const invite = (await call({ method: 'POST', path: '/api/admin/invite-link/tokens', token, body: { name: unique('invite'), expiresAt: '2099-01-01T00:00:00Z' } })).body;

    const weak = await call({ method: 'POST', path: `/invite/${invite.secret}/signup`, body: { name: 'W', email: `${unique('w')}@example.com`, password: 'short' } });
    await call({ method: 'PUT', path: `/api/admin/invite-link/tokens/${invite.secret}`, token, body: { enabled: false } });
    const closed = await call({ method: 'GET', path: `/invite/${invite.secret}/validate` });
    const unknown = await call({ method: 'POST', path: '/invite/0123456789abcdef/signup', body: { name: 'U', email: 'u@example.com', password: GOOD_PASSWORD } });

    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/^password: /);
    expect(closed.status).toBe(400);
    expect(unknown.status).toBe(400);
  });
});

describe('POST /api/admin/user/change-password', () => {
  it('changes the own password with the old one; the sessions end and the new password logs in', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const cookie = await logIn(call, user.username as string);
    const next = 'Another-Good-Pass-42';

    const wrongOld = await call({ method: 'POST', path: '/api/admin/user/change-password', headers: { Cookie: cookie }, body: { oldPassword: 'nope', password: next, confirmPassword: next } });
    const mismatch = await call({ method: 'POST', path: '/api/admin/user/change-password', headers: { Cookie: cookie }, body: { oldPassword: GOOD_PASSWORD, password: next, confirmPassword: `${next}!` } });
    const res = await call({ method: 'POST', path: '/api/admin/user/change-password', headers: { Cookie: cookie }, body: { oldPassword: GOOD_PASSWORD, password: next, confirmPassword: next } });

    expect(wrongOld.status).toBe(401);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toContain('confirmPassword');
    expect(res.status).toBe(200);
    expect((await me(cookie)).status).toBe(401);
    expect((await login(user.username as string, GOOD_PASSWORD)).status).toBe(401);
    expect((await login(user.username as string, next)).status).toBe(200);
  });
});

describe('an admin reset link', () => {
  it('is answered as a link, names its user, sets the password once and is then used up (403)', async () => {
    const user = await userWithPassword(services, 'Editor');
    const cookie = await logIn(call, user.username as string);

    const link = await call({ method: 'POST', path: '/api/admin/user-admin/reset-password', token, body: { id: user.email } });
    const secret = new URL(link.body.resetPasswordUrl).searchParams.get('token') as string;
    const validate = await call({ method: 'GET', path: `/auth/reset/validate?token=${secret}` });
    const reset = await call({ method: 'POST', path: '/auth/reset/password', body: { token: secret, password: 'Fresh-Password-77' } });
    const again = await call({ method: 'POST', path: '/auth/reset/password', body: { token: secret, password: 'Other-Password-88' } });

    expect(link.status).toBe(200);
    expect(link.body.resetPasswordUrl).toMatch(/^https:\/\/flags\.example\.com\/reset-password\?token=/);
    expect(validate.body).toMatchObject({ id: user.id, email: user.email, token: secret, role: { id: 2, name: 'Editor' } });
    expect(reset.status).toBe(200);
    expect(again.status).toBe(403);
    expect((await me(cookie)).status).toBe(401);
    expect((await login(user.username as string, 'Fresh-Password-77')).status).toBe(200);
  });

  it('a newer link for the same user ends the older one: it answers 401 and sets nothing', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const older = await resetLink(user.id);
    const newer = await resetLink(user.id);
    const validateOlder = await call({ method: 'GET', path: `/auth/reset/validate?token=${older}` });
    const resetOlder = await resetWith(older, 'Older-Link-Pass-1');

    expectLinkRefused(validateOlder);
    expectLinkRefused(resetOlder);
    await expectLogin(user, 'Older-Link-Pass-1', false);
    await expectLogin(user, GOOD_PASSWORD, true);
    const validateNewer = await call({ method: 'GET', path: `/auth/reset/validate?token=${newer}` });
    expect(validateNewer.status).toBe(200);
    expect(validateNewer.body).toMatchObject({ id: user.id, token: newer });
  });

  it('using a link ends every other link of that user', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const first = await resetLink(user.id);
    const second = await resetLink(user.id);

    const used = await resetWith(second, 'Second-Link-Pass-2');
    const other = await resetWith(first, 'First-Link-Pass-3');

    expect(used.status).toBe(200);
    expectLinkRefused(other);
    await expectLogin(user, 'First-Link-Pass-3', false);
    await expectLogin(user, GOOD_PASSWORD, false);
    await expectLogin(user, 'Second-Link-Pass-2', true);
  });

  it.each([
    ['their own change', async (user: User) => {
      const cookie = await logIn(call, user.username as string);
      const next = 'Own-Change-Pass-4';
      return call({ method: 'POST', path: '/api/admin/user/change-password', headers: { Cookie: cookie }, body: { oldPassword: GOOD_PASSWORD, password: next, confirmPassword: next } });
    }],
    ["an admin's", async (user: User) =>
      call({ method: 'POST', path: `/api/admin/user-admin/${user.id}/change-password`, token, body: { password: 'Admin-Set-Pass-5' } })],
  ])('a password change (%s) ends the links made before it', async (_how, change) => {
    const user = await userWithPassword(services, 'Viewer');
    const link = await resetLink(user.id);

    expect((await change(user)).status).toBe(200);
    const validate = await call({ method: 'GET', path: `/auth/reset/validate?token=${link}` });
    const reset = await resetWith(link, 'After-Change-Pass-6');

    expectLinkRefused(validate);
    expectLinkRefused(reset);
    await expectLogin(user, 'After-Change-Pass-6', false);
    // A link made after the change works, and sets the password.
    expect((await resetWith(await resetLink(user.id), 'After-Change-Pass-7')).status).toBe(200);
    await expectLogin(user, 'After-Change-Pass-7', true);
  });

  it("a link read before an admin changed the password cannot set it: the link's password write is on the password version it recorded", async () => {
    const user = await userWithPassword(services, 'Viewer');
    const link = await resetLink(user.id);
    const find = services.users.find.bind(services.users);
    // The admin's change lands between the link's check (which reads the user) and its write.
    vi.spyOn(services.users, 'find').mockImplementationOnce(async (id) => {
      const read = await find(id);
      await services.auth.setPasswordFor(id, 'Admin-Between-Pass-1');
      return read;
    });

    const reset = await resetWith(link, 'Stale-Link-Pass-2');
    vi.restoreAllMocks();

    expectLinkRefused(reset);
    await expectLogin(user, 'Stale-Link-Pass-2', false);
    await expectLogin(user, 'Admin-Between-Pass-1', true);
  });

  it('a password write that fails leaves the link usable: using it and writing the password are one transaction', async () => {
    const user = await userWithPassword(services, 'Viewer');
    const link = await resetLink(user.id);
    const send = DynamoDBDocumentClient.prototype.send;
    let failed = false;
    vi.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation(function (this: DynamoDBDocumentClient, ...args: unknown[]) {
      const [command] = args;
      if (!failed && command instanceof TransactWriteCommand && JSON.stringify(command.input).includes('USER_PASSWORDS')) {
        failed = true;
        return Promise.reject(Object.assign(new Error('injected: the password write did not go through'), { name: 'InternalServerError', $fault: 'server' }));
      }
      return (send as (...a: unknown[]) => Promise<unknown>).apply(this, args);
    } as never);

    const broken = await resetWith(link, 'First-Try-Pass-3');
    vi.restoreAllMocks();
    const again = await resetWith(link, 'Second-Try-Pass-4');

    expect(failed).toBe(true);
    expect(broken.status).toBeGreaterThanOrEqual(500);
    expect(again.status).toBe(200);
    expect((await login(user.username as string, 'Second-Try-Pass-4')).status).toBe(200);
  });

  it('an unknown link answers 401, and a user created with a password in user-admin can log in', async () => {
    const username = unique('created');

    const unknown = await call({ method: 'GET', path: '/auth/reset/validate?token=not-a-token' });
    const created = await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { username, rootRole: 'Viewer', password: GOOD_PASSWORD } });
    const weak = await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { username: unique('weak'), rootRole: 'Viewer', password: 'aaaBBB111!!' } });

    expect(unknown.status).toBe(401);
    expect(created.status).toBe(201);
    expect((await login(username, GOOD_PASSWORD)).status).toBe(200);
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/^password: /);
  });
});
