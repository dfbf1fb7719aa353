import { beforeAll, describe, expect, it } from 'vitest';
import { userSchema } from '../../lib/users/schemas.js';
import { createUser, namedAdminToken } from '../support/access.js';
import { apiClient } from '../support/api.js';
import { testServices, unique } from '../support/services.js';

const services = testServices();
const call = apiClient(services);
let token: string;

beforeAll(async () => {
  token = await namedAdminToken(services, unique('user-admin'));
});

const post = (body: unknown) => call({ method: 'POST', path: '/api/admin/user-admin', token, body });
const get = (id: number | string) => call({ method: 'GET', path: `/api/admin/user-admin/${id}`, token });
const put = (id: number | string, body: unknown) => call({ method: 'PUT', path: `/api/admin/user-admin/${id}`, token, body });
const del = (id: number | string) => call({ method: 'DELETE', path: `/api/admin/user-admin/${id}`, token });

describe('POST /api/admin/user-admin', () => {
  it('creates a user with an integer id and the fields of the User resource', async () => {
    const name = unique('ada');

    const res = await post({ email: `${name}@Example.COM`, username: name, name: 'Ada', rootRole: 'Editor' });

    expect(res.status).toBe(201);
    expect(userSchema.safeParse(res.body).success).toBe(true);
    expect(res.headers.location).toBe(`user-admin/${res.body.id}`);
    expect(res.body).toMatchObject({
      email: `${name}@example.com`, username: name, name: 'Ada', rootRole: 2,
      isAPI: false, accountType: 'User', seenAt: null, loginAttempts: 0, emailSent: false, permissions: [],
    });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.imageUrl).toMatch(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{64}\?s=42&d=retro&r=g$/);
    expect(res.body.inviteLink).toBeUndefined();
  });

  it('takes the root role as an id, as an id in a string, or as a name', async () => {
    const admin = await createUser(call, token, { rootRole: 1 });
    const editor = await createUser(call, token, { rootRole: '2' });
    const viewer = await createUser(call, token, { rootRole: 'Viewer' });

    expect([admin.rootRole, editor.rootRole, viewer.rootRole]).toEqual([1, 2, 3]);
  });

  it('hands out increasing ids from one counter, also to parallel creates', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(call, token)));

    expect(new Set(users.map((user) => user.id)).size).toBe(5);
  });

  it('accepts a user with only a username, and leaves the e-mail out of the answer', async () => {
    const username = unique('solo');

    const res = await post({ username, rootRole: 3 });

    expect(res.status).toBe(201);
    expect(res.body.email).toBeUndefined();
    expect(res.body.username).toBe(username);
  });

  it.each([
    [{ name: 'Nobody', rootRole: 'Viewer' }, 'email'],
    [{ email: 'not-an-email', rootRole: 'Viewer' }, 'email'],
    [{ email: 'x@example.com', rootRole: 'Owner' }, 'rootRole'],
    [{ email: 'x@example.com', rootRole: 7 }, 'rootRole'],
    [{ email: 'x@example.com' }, 'rootRole'],
  ])('refuses %j with 400 naming %s', async (body, property) => {
    const res = await post(body);

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(property);
  });

  it('refuses a taken e-mail with 409 NameExistsError, whatever its case', async () => {
    const existing = await createUser(call, token);

    const res = await post({ email: existing.email.toUpperCase(), rootRole: 'Viewer' });

    expect(res.status).toBe(409);
    expect(res.body.name).toBe('NameExistsError');
    expect(res.body.message).toContain('e-mail');
  });

  it('refuses a taken username with 409, whatever its case', async () => {
    const existing = await createUser(call, token);

    const res = await post({ username: existing.username.toUpperCase(), rootRole: 'Viewer' });

    expect(res.status).toBe(409);
    expect(res.body.message).toContain('username');
  });

  it('creates exactly one user when ten requests race for one e-mail', async () => {
    const email = `${unique('race')}@example.com`;

    const answers = await Promise.all(Array.from({ length: 10 }, () => post({ email, rootRole: 'Viewer' })));

    expect(answers.map((res) => res.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    const listed = await call({ method: 'GET', path: '/api/admin/user-admin', token });
    expect(listed.body.users.filter((user: { email?: string }) => user.email === email)).toHaveLength(1);
  });
});

describe('GET /api/admin/user-admin and E11 GET /api/admin/user-admin/{id}', () => {
  it('lists users in id order with the root roles', async () => {
    const created = await createUser(call, token);

    const res = await call({ method: 'GET', path: '/api/admin/user-admin', token });

    expect(res.status).toBe(200);
    expect(res.body.users).toContainEqual(created);
    const ids = res.body.users.map((user: { id: number }) => user.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(res.body.rootRoles.map((role: { id: number; name: string }) => [role.id, role.name])).toEqual([
      [1, 'Admin'], [2, 'Editor'], [3, 'Viewer'],
    ]);
  });

  it('answers one user by id', async () => {
    const created = await createUser(call, token);

    const res = await get(created.id);

    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
  });

  it('answers 400 for an id that is not an integer and 404 for an unknown one', async () => {
    const notNumeric = await get('abc');
    const unknown = await get(2_000_000_000);

    expect(notNumeric.status).toBe(400);
    expect(notNumeric.body.message).toContain('id');
    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
  });

  it('refuses client tokens with 403 NoAccessError', async () => {
    const { body } = await call({
      method: 'POST', path: '/api/admin/api-tokens', token, body: { tokenName: unique('sdk'), type: 'client', environment: 'development' },
    });

    const res = await call({ method: 'GET', path: '/api/admin/user-admin', token: body.secret });

    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
  });
});

describe('PUT /api/admin/user-admin/{id}', () => {
  it('changes the given fields and keeps the ones left out', async () => {
    const created = await createUser(call, token, { rootRole: 'Viewer' });

    const res = await put(created.id, { name: 'Renamed', rootRole: 'Admin' });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Renamed', rootRole: 1, email: created.email, username: created.username });
    expect((await get(created.id)).body).toEqual(res.body);
  });

  it('moves the e-mail: the old one is free at once, the new one is taken', async () => {
    const user = await createUser(call, token);
    const newEmail = `${unique('moved')}@example.com`;

    const res = await put(user.id, { email: newEmail });
    const takesOld = await post({ email: user.email, rootRole: 'Viewer' });
    const takesNew = await post({ email: newEmail, rootRole: 'Viewer' });

    expect(res.status).toBe(200);
    expect(res.body.email).toBe(newEmail);
    expect((await get(user.id)).body.email).toBe(newEmail);
    expect(takesOld.status).toBe(201);
    expect(takesOld.body.email).toBe(user.email);
    expect(takesNew.status).toBe(409);
    expect(takesNew.body.name).toBe('NameExistsError');
  });

  it('refuses an e-mail another user has with 409 and changes nothing', async () => {
    const [first, second] = [await createUser(call, token), await createUser(call, token)];

    const res = await put(second.id, { email: first.email, name: 'Should not stick' });

    expect(res.status).toBe(409);
    expect((await get(second.id)).body).toEqual(second);
  });

  it('answers 404 for an unknown user, 400 for a bad id or root role', async () => {
    const user = await createUser(call, token);
    const before = (await get(user.id)).body;

    const unknown = await put(2_000_000_001, { name: 'x' });
    const badId = await put('x1', { name: 'x' });
    const badRole = await put(user.id, { rootRole: 'Owner' });

    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect((await get(2_000_000_001)).status).toBe(404);
    expect(badId.status).toBe(400);
    expect(badId.body.name).toBe('ValidationError');
    expect(badId.body.message).toMatch(/^id: /);
    expect(badRole.status).toBe(400);
    expect(badRole.body.name).toBe('ValidationError');
    expect(badRole.body.message).toContain('rootRole');
    // The user keeps the root role it had.
    expect((await get(user.id)).body).toEqual(before);
  });
});

describe('DELETE /api/admin/user-admin/{id}', () => {
  it('deletes the user and frees its e-mail and username', async () => {
    const user = await createUser(call, token);

    const res = await del(user.id);

    expect(res.status).toBe(200);
    const gone = await get(user.id);
    expect(gone.status).toBe(404);
    expect(gone.body.name).toBe('NotFoundError');
    const again = await post({ email: user.email, username: user.username, rootRole: 'Viewer' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ email: user.email, username: user.username });
    expect(again.body.id).not.toBe(user.id);
  });

  it('answers 404 for an unknown user', async () => {
    const res = await del(2_000_000_002);

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
  });
});

describe('GET /api/admin/roles', () => {
  it('lists the root roles Admin 1, Editor 2 and Viewer 3', async () => {
    const res = await call({ method: 'GET', path: '/api/admin/roles', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.roles.map((role: { id: number; name: string; type: string }) => [role.id, role.name, role.type])).toEqual([
      [1, 'Admin', 'root'], [2, 'Editor', 'root'], [3, 'Viewer', 'root'],
    ]);
  });
});
