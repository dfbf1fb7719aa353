import { beforeAll, describe, expect, it } from 'vitest';
import { signupTokenSchema } from '../../lib/signup-tokens/schemas.js';
import { createUser, namedAdminToken } from '../support/access.js';
import { apiClient } from '../support/api.js';
import { testServices, unique } from '../support/services.js';

const UNLEASH_URL = 'https://flags.example.com';
const services = testServices({ UNLEASH_URL });
const call = apiClient(services);
const tokenName = unique('invite-admin');
let token: string;

beforeAll(async () => {
  token = await namedAdminToken(services, tokenName);
});

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const createToken = (body: unknown) => call({ method: 'POST', path: '/api/admin/invite-link/tokens', token, body });
const getToken = (secret: string) => call({ method: 'GET', path: `/api/admin/invite-link/tokens/${secret}`, token });
const putToken = (secret: string, body: unknown) => call({ method: 'PUT', path: `/api/admin/invite-link/tokens/${secret}`, token, body });
const signUp = (secret: string, body: unknown) =>
  call({ method: 'POST', path: `/api/admin/invite-link/tokens/${secret}/signup`, token, body });
const newToken = async (expiresAt = inDays(7)) => (await createToken({ name: unique('invite'), expiresAt })).body;

describe('POST /api/admin/invite-link/tokens', () => {
  it('answers 201 with a random secret, the link, the Viewer role and no users', async () => {
    const name = unique('invite');
    const expiresAt = inDays(7);

    const res = await createToken({ name, expiresAt });

    expect(res.status).toBe(201);
    expect(signupTokenSchema.safeParse(res.body).success).toBe(true);
    expect(res.body.secret).toMatch(/^[0-9a-f]{32}$/);
    expect(res.headers.location).toBe(`tokens/${res.body.secret}`);
    expect(res.body).toMatchObject({
      name, expiresAt, enabled: true, createdBy: tokenName, users: [],
      url: `${UNLEASH_URL}/new-user?invite=${res.body.secret}`,
      role: { id: 3, name: 'Viewer', type: 'root' },
    });
  });

  it('caps the expiry at one month from now, as Unleash does', async () => {
    const res = await createToken({ name: unique('long'), expiresAt: inDays(400) });

    const lifetime = Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt);
    expect(lifetime).toBeGreaterThanOrEqual(28 * DAY);
    expect(lifetime).toBeLessThanOrEqual(31 * DAY);
  });

  it.each([
    [{ expiresAt: '2030-01-01T00:00:00.000Z' }, 'name'],
    [{ name: 'x' }, 'expiresAt'],
    [{ name: 'x', expiresAt: 'next week' }, 'expiresAt'],
  ])('refuses %j with 400 naming %s', async (body, property) => {
    const res = await createToken(body);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(property);
  });
});

describe('GET /api/admin/invite-link/tokens[/{token}]', () => {
  it('lists tokens and reads one by its secret', async () => {
    const created = await newToken();

    const list = await call({ method: 'GET', path: '/api/admin/invite-link/tokens', token });
    const one = await getToken(created.secret);

    expect(list.status).toBe(200);
    expect(list.body.tokens).toContainEqual(created);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created);
  });

  it('answers 404 for an unknown token', async () => {
    const res = await getToken('0123456789abcdef0123456789abcdef');

    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Could not find public signup token.');
  });
});

describe('E20 PUT /api/admin/invite-link/tokens/{token}', () => {
  it('updates enabled and expiresAt and answers the token', async () => {
    const created = await newToken();
    const expiresAt = inDays(60);

    const res = await putToken(created.secret, { enabled: false, expiresAt });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ secret: created.secret, enabled: false, expiresAt });
    expect((await getToken(created.secret)).body).toEqual(res.body);
  });

  it('changes only what is given', async () => {
    const created = await newToken();

    const res = await putToken(created.secret, { enabled: false });

    expect(res.body).toMatchObject({ enabled: false, expiresAt: created.expiresAt });
  });

  it('reads enabled false once expired, whatever is stored', async () => {
    const created = await newToken();

    const res = await putToken(created.secret, { enabled: true, expiresAt: new Date(Date.now() - 1000).toISOString() });

    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(false);
    expect((await getToken(created.secret)).body.enabled).toBe(false);
  });

  it('answers 404 for an unknown token', async () => {
    const res = await putToken('ffffffffffffffffffffffffffffffff', { enabled: false });

    expect(res.status).toBe(404);
    expect(res.body.name).toBe('NotFoundError');
    // The PUT made no token of that secret.
    expect((await getToken('ffffffffffffffffffffffffffffffff')).status).toBe(404);
  });

  it.each([
    [{}, 'expiresAt'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ enabled: false, name: 'renamed' }, 'name'],
  ])('refuses %j with 400 naming %s', async (body, property) => {
    const created = await newToken();

    const res = await putToken(created.secret, body);

    expect(res.status).toBe(400);
    expect(res.body.message).toContain(property);
  });
});

describe('signing up with a token', () => {
  it('creates a Viewer listed in the token’s users, whose inviteLink is the token’s link', async () => {
    const created = await newToken();
    const email = `${unique('joiner')}@example.com`;

    const res = await signUp(created.secret, { email, name: 'Joiner', rootRole: 'Admin' });
    const after = await getToken(created.secret);

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email, name: 'Joiner', rootRole: 3, inviteLink: created.url });
    expect(after.body.users).toEqual([res.body]);
    expect((await call({ method: 'GET', path: `/api/admin/user-admin/${res.body.id}`, token })).body).toEqual(res.body);
  });

  it('keeps the users of other tokens and of the user admin out of the list', async () => {
    const [first, second] = [await newToken(), await newToken()];
    await createUser(call, token);
    const joined = (await signUp(first.secret, { username: unique('one') })).body;

    expect((await getToken(first.secret)).body.users).toEqual([joined]);
    expect((await getToken(second.secret)).body.users).toEqual([]);
  });

  it('refuses a disabled or expired token with 400, and an unknown one with 404', async () => {
    const [disabled, expired] = [await newToken(), await newToken()];
    await putToken(disabled.secret, { enabled: false });
    await putToken(expired.secret, { expiresAt: new Date(Date.now() - 1000).toISOString() });

    const viaDisabled = await signUp(disabled.secret, { username: unique('late') });
    const viaExpired = await signUp(expired.secret, { username: unique('late') });
    const viaUnknown = await signUp('00000000000000000000000000000000', { username: unique('late') });

    expect(viaDisabled.status).toBe(400);
    expect(viaDisabled.body.message).toContain('token');
    expect(viaExpired.status).toBe(400);
    expect(viaUnknown.status).toBe(404);
    expect((await getToken(disabled.secret)).body.users).toEqual([]);
  });

  it('keeps e-mails unique for people who sign up too', async () => {
    const created = await newToken();
    const existing = await createUser(call, token);

    const res = await signUp(created.secret, { email: existing.email });

    expect(res.status).toBe(409);
    expect(res.body.name).toBe('NameExistsError');
    expect(res.body.message).toContain('mail');
    // No second user: the token lists no one, and the existing user is as it was.
    expect((await getToken(created.secret)).body.users).toEqual([]);
    expect((await call({ method: 'GET', path: `/api/admin/user-admin/${existing.id}`, token })).body).toMatchObject({ id: existing.id, email: existing.email });
  });
});

describe('the signup write itself', () => {
  it('re-checks the token in the user’s transaction, so a token closed after the check admits nobody', async () => {
    const created = await newToken();
    await putToken(created.secret, { enabled: false });

    const write = services.users.create({ username: unique('sneaky'), rootRole: 3 }, tokenName, created.secret);

    await expect(write).rejects.toThrow(/disabled or has expired/);
    expect((await getToken(created.secret)).body.users).toEqual([]);
  });
});
