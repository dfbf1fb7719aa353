import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';

import { prepareLocalTable } from '../../lib/store/create-table.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { namedAdminToken } from '../support/access.js';
import { oidcSettingsFor, ProviderBrowser, startIdentityProvider, type IdentityProvider } from '../support/identity-provider.js';
import { testConfig, unique, servicesOn } from '../support/services.js';
import { cookiePair, GOOD_PASSWORD, logIn } from '../support/sessions.js';

/**
 * Which account a single sign-on login lands in: the provider's subject (iss + sub) once linked,
 * never an e-mail someone typed. The attack these tests hold shut: an invite link's signup with
 * someone else's address, waiting for that person's first SSO login to hand over their groups.
 * The OIDC settings are one item per table, so this file has a table of its own.
 */
const UNLEASH_URL = 'http://localhost:4242';
const tableName = unique('oidc-linking');
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let idp: IdentityProvider;

beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  services = servicesOn(testConfig({ TABLE_NAME: tableName, SECRET_KEY: randomBytes(32).toString('base64url'), UNLEASH_URL }));
  await services.firstStart.ensure();
  call = apiClient(services);
  token = await namedAdminToken(services, unique('linking-admin'));
  idp = await startIdentityProvider({ redirectUris: [`${UNLEASH_URL}/auth/oidc/callback`], postLogoutRedirectUris: [`${UNLEASH_URL}/signed-out`] });
});

afterAll(async () => {
  await idp?.close();
});

const configure = async (overrides: Record<string, unknown> = {}) => {
  const res = await call({
    method: 'POST', path: '/api/admin/auth/oidc/settings', token,
    body: oidcSettingsFor(idp, overrides),
  });
  expect(res.status, res.text).toBe(200);
};

/** The service's start, the provider's sign-in as `login`, and the browser back at the callback. */
async function atCallback(login: string): Promise<{ callbackUrl: URL; cookie: string }> {
  const start = await call({ method: 'GET', path: '/auth/oidc/login' });
  expect(start.status, start.text).toBe(302);
  const callbackUrl = await new ProviderBrowser(UNLEASH_URL).signIn(start.headers.location as string, login);
  return { callbackUrl, cookie: cookiePair(start.cookies[0]) };
}

const finish = ({ callbackUrl, cookie }: { callbackUrl: URL; cookie: string }): Promise<ApiResponse> =>
  call({ method: 'GET', path: `${callbackUrl.pathname}${callbackUrl.search}`, headers: { Cookie: cookie } });

async function signIn(login: string): Promise<ApiResponse> {
  return finish(await atCallback(login));
}

const sessionOf = (res: ApiResponse): string => cookiePair(res.cookies.find((c) => c.startsWith('unleash-session=')));

const me = (cookie: string) => call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookie } });

/** The message a refused login shows on the UI's login page; no session is handed out. */
const refusal = (res: ApiResponse): string => {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location as string, UNLEASH_URL);
  expect(location.pathname).toBe('/login');
  expect(res.cookies.some((c) => c.startsWith('unleash-session='))).toBe(false);
  return location.searchParams.get('errorMsg') ?? '';
};

const usersWith = async (email: string) => (await services.users.list()).filter((user) => user.email === email);

async function createGroup(body: Record<string, unknown>): Promise<number> {
  const res = await call({ method: 'POST', path: '/api/admin/groups', token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

async function memberIds(groupId: number): Promise<number[]> {
  const res = await call({ method: 'GET', path: `/api/admin/groups/${groupId}`, token });
  return (res.body.users as { user: { id: number } }[]).map((member) => member.user.id);
}

/** Someone holding an invite link signs up with `email`, a password of their choosing and no proof they own it. */
async function inviteSignup(email: string): Promise<{ id: number; username: string }> {
  const invite = await call({ method: 'POST', path: '/api/admin/invite-link/tokens', token, body: { name: unique('invite'), expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
  expect(invite.status, invite.text).toBe(201);
  const username = unique('invitee');
  const res = await call({
    method: 'POST', path: `/invite/${invite.body.secret as string}/signup`, headers: { Origin: UNLEASH_URL },
    body: { username, email, name: 'Invitee', password: GOOD_PASSWORD },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as number, username };
}

const hasAdmin = async (cookie: string) =>
  ((await me(cookie)).body.permissions as { permission: string }[]).some((entry) => entry.permission === 'ADMIN');

describe('an invite signup with someone else’s e-mail', () => {
  it.each([true, false])('does not receive their SSO login or their Admin group (autoCreate %s)', async (autoCreate) => {
    await configure({ autoCreate });
    const admins = await createGroup({ name: unique('admins'), mappingsSSO: ['flag-admins'], rootRole: 1 });
    const victim = unique('victim');
    const email = `${victim}@example.com`;
    const invitee = await inviteSignup(email);
    idp.accounts.set(victim, { email, name: 'Victim', groups: ['flag-admins'] });

    const res = await signIn(victim);

    expect(refusal(res)).toMatch(/already an account with the e-mail address .* ask an administrator/i);
    expect(await memberIds(admins)).not.toContain(invitee.id);
    const after = await services.users.get(invitee.id);
    expect(after.rootRole).toBe(3);
    expect(after.ssoIdentities ?? []).toEqual([]);
    expect(await usersWith(email)).toHaveLength(1);
    // The invitee's own password login is still a Viewer's.
    const session = await logIn(call, invitee.username);
    expect(await hasAdmin(session)).toBe(false);
  });

  it('is linked once an administrator vouches for the address; the person then logs in with their groups', async () => {
    await configure();
    const person = unique('own-invite');
    const email = `${person}@example.com`;
    const invitee = await inviteSignup(email);
    idp.accounts.set(person, { email });
    expect(refusal(await signIn(person))).toMatch(/ask an administrator/i);

    const vouched = await call({ method: 'PUT', path: `/api/admin/user-admin/${invitee.id}`, token, body: { emailVerified: true } });
    expect(vouched.status, vouched.text).toBe(200);
    const res = await signIn(person);

    expect((await me(sessionOf(res))).body.user).toMatchObject({ id: invitee.id });
    expect((await services.users.get(invitee.id)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: person }]);
  });
});

describe('who vouches for an e-mail', () => {
  it('an administrator editing an invited user’s name or role does not vouch for the address; setting an address does', async () => {
    await configure();
    const person = unique('edited');
    const invitee = await inviteSignup(`${person}@typed.example.com`);
    idp.accounts.set(person, { email: `${person}@example.com` });

    await call({ method: 'PUT', path: `/api/admin/user-admin/${invitee.id}`, token, body: { name: 'Renamed', rootRole: 'Editor', email: `${person}@typed.example.com` } });
    expect((await services.users.get(invitee.id)).emailVerifiedBy).toBeNull();

    const set = await call({ method: 'PUT', path: `/api/admin/user-admin/${invitee.id}`, token, body: { email: `${person}@example.com` } });
    expect(set.status, set.text).toBe(200);
    expect((await services.users.get(invitee.id)).emailVerifiedBy).toBe('admin');
    expect((await me(sessionOf(await signIn(person)))).body.user).toMatchObject({ id: invitee.id, rootRole: 2 });

    const withdrawn = await call({ method: 'PUT', path: `/api/admin/user-admin/${invitee.id}`, token, body: { emailVerified: false } });
    expect(withdrawn.status).toBe(200);
    expect((await services.users.get(invitee.id)).emailVerifiedBy).toBeNull();
  });
});

describe('an account is linked by the provider’s subject', () => {
  it('finds a returning user by iss + sub after their e-mail changed at the provider', async () => {
    await configure();
    const login = unique('mover');
    idp.accounts.set(login, { email: `${login}@example.com` });
    const first = await signIn(login);
    const id = (await me(sessionOf(first))).body.user.id as number;

    idp.accounts.set(login, { email: `${login}@moved.example.com` });
    const second = await signIn(login);

    expect((await me(sessionOf(second))).body.user).toMatchObject({ id, email: `${login}@example.com` });
    expect(await usersWith(`${login}@moved.example.com`)).toEqual([]);
    expect((await services.users.get(id)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);
  });

  it('links an account an administrator made at its first login, by e-mail, and by identity afterwards', async () => {
    await configure({ autoCreate: false });
    const login = unique('made');
    const email = `${login}@example.com`;
    const made = await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { email, name: 'Made', rootRole: 'Editor' } });
    expect(made.status, made.text).toBe(201);
    idp.accounts.set(login, { email });

    const first = await signIn(login);
    idp.accounts.set(login, { email: `${login}@renamed.example.com` });
    const second = await signIn(login);

    expect((await me(sessionOf(first))).body.user).toMatchObject({ id: made.body.id, rootRole: 2 });
    expect((await me(sessionOf(second))).body.user).toMatchObject({ id: made.body.id });
    expect((await services.users.get(made.body.id as number)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);
  });

  it('refuses a second identity of the same provider with the e-mail of an account already linked', async () => {
    await configure();
    const [owner, other] = [unique('owner'), unique('other')];
    const email = `${owner}@example.com`;
    idp.accounts.set(owner, { email });
    idp.accounts.set(other, { email, groups: ['flag-admins'] });
    const first = await signIn(owner);
    const id = (await me(sessionOf(first))).body.user.id as number;

    const second = await signIn(other);

    expect(refusal(second)).toMatch(/already linked to another sign-in of this identity provider.*ask an administrator/i);
    expect((await services.users.get(id)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: owner }]);
    expect(await usersWith(email)).toHaveLength(1);
  });

  it('refuses an e-mail the provider does not say is verified unless the settings trust it; a linked user logs in regardless', async () => {
    await configure();
    const login = unique('no-flag');
    const email = `${login}@example.com`;
    idp.accounts.set(login, { email, email_verified: 'absent' });

    expect(refusal(await signIn(login))).toMatch(/does not say .* verified.*trustEmailClaim/);
    expect(await usersWith(email)).toEqual([]);

    await configure({ trustEmailClaim: true });
    const trusted = await signIn(login);
    const id = (await me(sessionOf(trusted))).body.user.id as number;
    expect((await services.users.get(id)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);

    await configure({ trustEmailClaim: false });
    expect((await me(sessionOf(await signIn(login)))).body.user).toMatchObject({ id });
  });

  it('deleting a linked user ends its link: the next login makes a new account', async () => {
    await configure();
    const login = unique('deleted');
    idp.accounts.set(login, { email: `${login}@example.com` });
    const first = (await me(sessionOf(await signIn(login)))).body.user.id as number;
    expect((await call({ method: 'DELETE', path: `/api/admin/user-admin/${first}`, token })).status).toBe(200);

    const again = (await me(sessionOf(await signIn(login)))).body.user.id as number;

    expect(again).not.toBe(first);
    expect((await services.users.get(again)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);
  });

  it('two first logins of one person at once make one account, with its link', async () => {
    await configure();
    const login = unique('twice');
    const email = `${login}@example.com`;
    idp.accounts.set(login, { email });
    const [one, two] = await Promise.all([atCallback(login), atCallback(login)]);

    const answers = await Promise.all([finish(one), finish(two)]);

    const ids = await Promise.all(answers.map(async (res) => (await me(sessionOf(res))).body.user.id as number));
    const created = await usersWith(email);
    expect(created).toHaveLength(1);
    expect(ids).toEqual([created[0]!.id, created[0]!.id]);
    expect(created[0]!.ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);
  });

  it('two first logins at once into an account an administrator made link it once', async () => {
    await configure({ autoCreate: false });
    const login = unique('race');
    const email = `${login}@example.com`;
    const made = await call({ method: 'POST', path: '/api/admin/user-admin', token, body: { email, rootRole: 'Viewer' } });
    idp.accounts.set(login, { email });
    const [one, two] = await Promise.all([atCallback(login), atCallback(login)]);

    const answers = await Promise.all([finish(one), finish(two)]);

    for (const res of answers) expect((await me(sessionOf(res))).body.user).toMatchObject({ id: made.body.id });
    expect((await services.users.get(made.body.id as number)).ssoIdentities).toEqual([{ issuer: idp.issuer, subject: login }]);
  });
});
