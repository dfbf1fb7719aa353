import { createHash, randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';

import { LOGIN_UNDER_WAY_TTL_MS } from '../../lib/oidc/model.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { namedAdminToken } from '../support/access.js';
import { oidcSettingsFor, ProviderBrowser, startIdentityProvider, type IdentityProvider, type Tamper } from '../support/identity-provider.js';
import { testConfig, unique, servicesOn } from '../support/services.js';
import { localContext } from '../../local/api-gateway-event.js';
import { cookiePair, GOOD_PASSWORD, userWithPassword } from '../support/sessions.js';

/**
 * Single sign-on against a real OpenID provider (oidc-provider on loopback): the service's
 * handlers are called in-process, the browser's part is played by fetch with a cookie jar. The
 * OIDC settings are one item per table, so this file has a table of its own. The services'
 * clock can be moved to expire a login under way without waiting.
 */
const UNLEASH_URL = 'http://localhost:4242';
const tableName = unique('oidc-login');
let clockOffsetMs = 0;
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;
let idp: IdentityProvider;

beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  services = servicesOn(
    testConfig({ TABLE_NAME: tableName, SECRET_KEY: randomBytes(32).toString('base64url'), UNLEASH_URL }),
    { now: () => new Date(Date.now() + clockOffsetMs) },
  );
  await services.firstStart.ensure();
  call = apiClient(services);
  token = await namedAdminToken(services, unique('sso-admin'));
  idp = await startIdentityProvider({ redirectUris: [`${UNLEASH_URL}/auth/oidc/callback`], postLogoutRedirectUris: [`${UNLEASH_URL}/signed-out`] });
});

afterAll(async () => {
  await idp?.close();
});

const configure = async (overrides: Record<string, unknown> = {}) => {
  const res = await call({
    method: 'POST', path: '/api/admin/auth/oidc/settings', token,
    body: oidcSettingsFor(idp, { enableSingleSignOut: true, ...overrides }),
  });
  expect(res.status, res.text).toBe(200);
};

/** A browser at the provider, sent back to this service. */
const providerBrowser = () => new ProviderBrowser(UNLEASH_URL);

/** One person's whole sign-in: the service's start, the provider, the callback. */
async function signIn(login: string, options: { redirect?: string; browser?: ProviderBrowser } = {}) {
  const start = await call({ method: 'GET', path: `/auth/oidc/login${options.redirect ? `?redirect=${encodeURIComponent(options.redirect)}` : ''}` });
  expect(start.status, start.text).toBe(302);
  const browserCookie = cookiePair(start.cookies[0]);
  const callbackUrl = await (options.browser ?? providerBrowser()).signIn(start.headers.location as string, login);
  const callback = await finish(callbackUrl, browserCookie);
  return { start, callbackUrl, browserCookie, callback, session: cookiePair(callback.cookies.find((c) => c.startsWith('unleash-session='))) };
}

const finish = (callbackUrl: URL, cookie: string): Promise<ApiResponse> =>
  call({ method: 'GET', path: `${callbackUrl.pathname}${callbackUrl.search}`, headers: cookie ? { Cookie: cookie } : {} });

const me = (cookie: string) => call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookie } });

/** The message a refused login shows on the UI's login page. */
const refusal = (res: ApiResponse): string => {
  expect(res.status).toBe(302);
  const location = new URL(res.headers.location as string, UNLEASH_URL);
  expect(location.pathname).toBe('/login');
  expect(res.cookies.some((c) => c.startsWith('unleash-session='))).toBe(false);
  return location.searchParams.get('errorMsg') ?? '';
};

const account = (groups?: string[]) => {
  const login = unique('sso');
  const email = `${login}@example.com`;
  idp.accounts.set(login, { email, name: `Person ${login}`, ...(groups ? { groups } : {}) });
  return { login, email };
};

const userNamed = async (email: string) => (await services.users.list()).find((user) => user.email === email);

describe('OIDC login against a real provider', () => {
  beforeAll(() => configure());

  it('creates an unknown user with the default root role and starts a session; the login is recorded', async () => {
    const { login, email } = account();

    const { callback, session } = await signIn(login);

    expect(callback.status).toBe(302);
    expect(callback.headers.location).toBe('/');
    expect(callback.cookies.find((c) => c.startsWith('unleash-session='))).toMatch(/HttpOnly; SameSite=Lax/);
    // The cookie that tied the callback to this browser is cleared.
    expect(callback.cookies.some((c) => /^unleash-oidc-login-[0-9a-f]{16}=; Path=\/auth\/oidc; Max-Age=0/.test(c))).toBe(true);
    const user = await userNamed(email);
    expect(user).toMatchObject({ email, name: `Person ${login}`, rootRole: 3, createdBy: 'oidc-login' });
    expect(user?.seenAt).not.toBeNull();
    const who = await me(session);
    expect(who.status).toBe(200);
    expect(who.body.user).toMatchObject({ email });
  });

  it('logs an existing user in without changing them, and lands where the login page asked', async () => {
    const existing = await userWithPassword(services, 'Editor');
    idp.accounts.set(existing.username as string, { email: (existing.email as string).toUpperCase() });

    const { callback, session } = await signIn(existing.username as string, { redirect: '/projects/default' });

    expect(callback.headers.location).toBe('/projects/default');
    expect((await me(session)).body.user).toMatchObject({ id: existing.id, rootRole: 2 });
    expect((await services.users.get(existing.id)).name).toBe(existing.name);
  });

  it("a returning user's login costs 8 DynamoDB requests: the start's 1, the callback's 7", async () => {
    const { login } = account(['nobody-maps-this']);
    const browser = providerBrowser();
    await signIn(login, { browser });
    const before = services.dynamoRequests.snapshot();

    await signIn(login, { browser });

    // Start: the settings. Callback: the settings, the identity's link and the user, the groups
    // (syncing), the login time, the session and its ID token.
    const spent = countsSince(before, services.dynamoRequests.snapshot());
    expect(spent.byOperation).toEqual({ GetItem: 4, PutItem: 2, Query: 1, UpdateItem: 1 });
  });

  it('never redirects to another site after the login', async () => {
    const { login } = account();

    for (const redirect of ['//evil.example.com/x', 'https://evil.example.com/', '/\\evil.example.com', '/\t/evil.example.com/x', '/\n/evil.example.com', 'x'.repeat(3000)]) {
      expect((await signIn(login, { redirect })).callback.headers.location).toBe('/');
    }
  });

  it('lands on the path a dot segment resolves to, never on a protocol-relative address', async () => {
    const { login } = account();

    for (const [redirect, landing] of [['/a/..//evil.example', '/'], ['/./..//x', '/'], ['/%2e%2e//x', '/'], ['/a/../projects', '/projects']]) {
      const location = (await signIn(login, { redirect })).callback.headers.location as string;
      expect(location, redirect).toBe(landing);
      expect(location).toMatch(/^\/(?![/\\])/);
    }
  });

  it('starting a login writes nothing: the login under way travels sealed in its cookie', async () => {
    const before = services.dynamoRequests.snapshot();

    const start = await call({ method: 'GET', path: '/auth/oidc/login?redirect=/projects' });

    const spent = countsSince(before, services.dynamoRequests.snapshot());
    expect(spent.byOperation).toEqual({ GetItem: 1 });
    const authorize = new URL(start.headers.location as string);
    const cookie = start.cookies[0] as string;
    expect(cookie).toMatch(/^unleash-oidc-login-[0-9a-f]{16}=v1\.[A-Za-z0-9_-]+; Path=\/auth\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/);
    // Neither the state nor the nonce can be read out of it (the PKCE verifier is never on the wire).
    const value = cookiePair(cookie).replace(/^[^=]+=/, '');
    const opened = Buffer.from(value.slice(3), 'base64url').toString('latin1');
    for (const secret of [authorize.searchParams.get('state'), authorize.searchParams.get('nonce')]) {
      expect(value).not.toContain(secret);
      expect(opened).not.toContain(secret);
    }
  });

  it('syncs SSO groups: joins mapped groups, leaves mapped groups no longer named, leaves unmapped groups alone; a group role applies', async () => {
    const admins = await createGroup({ name: unique('admins'), mappingsSSO: ['flag-admins'], rootRole: 1 });
    const ops = await createGroup({ name: unique('ops'), mappingsSSO: ['ops', 'sre'] });
    const { login, email } = account(['flag-admins', 'unmapped']);
    const first = await signIn(login);
    const user = (await userNamed(email))!;
    const manual = await createGroup({ name: unique('manual'), users: [{ user: { id: user.id } }] });

    expect(await memberIds(admins)).toContain(user.id);
    expect(await memberIds(ops)).not.toContain(user.id);
    // Viewer by default, Admin through the group.
    expect((await me(first.session)).body.permissions).toContainEqual(expect.objectContaining({ permission: 'ADMIN' }));

    idp.accounts.set(login, { email, groups: ['sre'] });
    const second = await signIn(login);

    expect(await memberIds(admins)).not.toContain(user.id);
    expect(await memberIds(ops)).toContain(user.id);
    expect(await memberIds(manual)).toContain(user.id);
    expect((await me(second.session)).body.permissions).not.toContainEqual(expect.objectContaining({ permission: 'ADMIN' }));
  });

  it('takes a user out of mapped groups when the token carries no groups claim: leaving the scope out keeps nothing', async () => {
    const group = await createGroup({ name: unique('stripped'), mappingsSSO: ['keepers'] });
    const { login, email } = account(['keepers']);
    await signIn(login);
    const user = (await userNamed(email))!;
    expect(await memberIds(group)).toContain(user.id);

    idp.accounts.set(login, { email });
    await signIn(login);

    expect(await memberIds(group)).not.toContain(user.id);
  });

  it("matches users by e-mail only: a username that is someone's address does not take their login", async () => {
    const login = unique('victim');
    const email = `${login}@example.com`;
    const squatter = await services.users.create({ username: email, email: `${unique('squatter')}@example.com`, rootRole: 'Viewer', password: GOOD_PASSWORD }, 'test');
    idp.accounts.set(login, { email });

    const { session } = await signIn(login);

    const who = (await me(session)).body.user;
    expect(who.id).not.toBe(squatter.id);
    expect(who.email).toBe(email);
  });

  it('reads the groups at a dotted path (Keycloak realm roles)', async () => {
    await configure({ groupJsonPath: 'realm_access.roles' });
    try {
      const group = await createGroup({ name: unique('realm'), mappingsSSO: ['realm-editors'] });
      const { login, email } = account(['realm-editors']);

      await signIn(login);

      expect(await memberIds(group)).toContain((await userNamed(email))!.id);
    } finally {
      await configure();
    }
  });

  it('single sign-out: logout sends the browser to the provider with the ID token; without it, to the signed-out page', async () => {
    const { login } = account();
    const { session } = await signIn(login);
    // The session read on every request stays small: the ID token is an item of its own.
    const [userId, secret] = session.replace('unleash-session=', '').split('.') as [string, string];
    const db = createDocumentClient({ region: 'local', endpoint: inject('dynamodb').endpoint });
    const key = keys.session(Number(userId), createHash('sha256').update(secret).digest('hex'));
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    expect(Item).toMatchObject({ sso: true });
    expect(Item?.idToken).toBeUndefined();

    const out = await call({ method: 'POST', path: '/logout', headers: { Cookie: session } });

    expect(out.status).toBe(302);
    const location = new URL(out.headers.location as string);
    expect(location.origin).toBe(idp.issuer);
    expect(location.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(location.searchParams.get('post_logout_redirect_uri')).toBe(`${UNLEASH_URL}/signed-out`);
    expect((await me(session)).status).toBe(401);

    await configure({ enableSingleSignOut: false });
    try {
      const again = await signIn(login);
      const local = await call({ method: 'POST', path: '/logout', headers: { Cookie: again.session } });
      expect(local.headers.location).toBe('/signed-out');
    } finally {
      await configure();
    }
  });
});

describe('refused logins create nothing', () => {
  beforeAll(() => configure());

  it.each<[Tamper, RegExp]>([
    ['other-key', /signature/i],
    ['payload', /signature/i],
    ['audience', /aud/i],
    ['issuer', /iss/i],
    ['expired', /exp/i],
    ['nonce', /nonce/i],
  ])('an ID token tampered with (%s) is refused', async (mode, reason) => {
    const { login, email } = account();
    idp.tamper = mode;
    try {
      const { callback } = await signIn(login);

      expect(refusal(callback)).toMatch(reason);
      expect(await userNamed(email)).toBeUndefined();
    } finally {
      idp.tamper = 'none';
    }
  });

  it('an ID token signed with another algorithm than the configured one is refused', async () => {
    await configure({ clientId: idp.clients.rs384.clientId, secret: idp.clients.rs384.secret, idTokenSigningAlgorithm: 'RS256' });
    try {
      const { login, email } = account();

      expect(refusal((await signIn(login)).callback)).toMatch(/alg/i);
      expect(await userNamed(email)).toBeUndefined();

      await configure({ clientId: idp.clients.rs384.clientId, secret: idp.clients.rs384.secret, idTokenSigningAlgorithm: 'RS384' });
      expect((await signIn(login)).callback.headers.location).toBe('/');
    } finally {
      await configure();
    }
  });

  it('a required authentication level (acrValues) the answer does not show is refused', async () => {
    await configure({ acrValues: 'urn:example:mfa' });
    try {
      const { login, email } = account();

      expect(refusal((await signIn(login)).callback)).toMatch(/required authentication level/);
      expect(await userNamed(email)).toBeUndefined();
    } finally {
      await configure();
    }
  });

  it('two logins under way in one browser (two tabs): each has a cookie of its own, and the first to finish clears the other, which is pointless then', async () => {
    const { login } = account();
    const browser = providerBrowser();
    const first = await call({ method: 'GET', path: '/auth/oidc/login' });
    const second = await call({ method: 'GET', path: '/auth/oidc/login' });
    const [firstCookie, secondCookie] = [cookiePair(first.cookies[0]), cookiePair(second.cookies[0])];
    const nameOf = (pair: string) => pair.slice(0, pair.indexOf('='));

    const firstBack = await finish(await browser.signIn(first.headers.location as string, login), [firstCookie, secondCookie].join('; '));

    expect(nameOf(firstCookie)).not.toBe(nameOf(secondCookie));
    expect(firstBack.headers.location).toBe('/');
    expect(firstBack.cookies).toEqual(expect.arrayContaining([
      `${nameOf(firstCookie)}=; Path=/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`,
      `${nameOf(secondCookie)}=; Path=/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`,
    ]));
  });

  it('a finished login clears every other login cookie the browser sent, and only names this service sets', async () => {
    const { login } = account();
    const start = await call({ method: 'GET', path: '/auth/oidc/login' });
    const others = Array.from({ length: 5 }, () => `unleash-oidc-login-${randomBytes(8).toString('hex')}`);
    const sent = [cookiePair(start.cookies[0]), ...others.map((name) => `${name}=sealed`), 'unleash-oidc-login-Bad,Name=x', 'unrelated=1'].join('; ');

    const back = await finish(await providerBrowser().signIn(start.headers.location as string, login), sent);
    const cleared = back.cookies.filter((c) => c.includes('Max-Age=0')).map((c) => c.slice(0, c.indexOf('=')));

    expect(back.headers.location).toBe('/');
    expect(cleared.sort()).toEqual([cookiePair(start.cookies[0]).split('=')[0], ...others].sort());
  });

  it('a login started by a browser that carries more than 3 login cookies clears all but the new one; with 3 it clears none', async () => {
    const names = (count: number) => Array.from({ length: count }, () => `unleash-oidc-login-${randomBytes(8).toString('hex')}`);
    const start = (carried: string[]) => call({ method: 'GET', path: '/auth/oidc/login', headers: { Cookie: carried.map((name) => `${name}=sealed`).join('; ') } });
    const [three, four] = [names(3), names(4)];

    const withThree = await start(three);
    const withFour = await start(four);

    expect(withThree.status).toBe(302);
    expect(withThree.cookies).toHaveLength(1);
    expect(withFour.status).toBe(302);
    expect(withFour.cookies[0]).toMatch(/^unleash-oidc-login-[0-9a-f]{16}=[^;]+; Path=\/auth\/oidc; Max-Age=600/);
    expect(withFour.cookies.slice(1).sort()).toEqual(four.map((name) => `${name}=; Path=/auth/oidc; Max-Age=0; HttpOnly; SameSite=Lax`).sort());
  });

  it("a provider that stops answering mid-login is given up in time for the request's writes, and the login page says so", async () => {
    const { login, email } = account();
    const start = await call({ method: 'GET', path: '/auth/oidc/login' });
    const callbackUrl = await providerBrowser().signIn(start.headers.location as string, login);
    idp.tamper = 'hang';
    try {
      // 7 s left of the function's time: writes need their last 6 s, so the provider gets at most 0.5 s.
      const res = await call({
        method: 'GET', path: `${callbackUrl.pathname}${callbackUrl.search}`, headers: { Cookie: cookiePair(start.cookies[0]) },
        context: { ...localContext('test-access'), getRemainingTimeInMillis: () => 7_000 },
      });

      expect(refusal(res)).toMatch(/could not be reached to finish the sign-in/);
      expect(await userNamed(email)).toBeUndefined();
    } finally {
      idp.tamper = 'none';
    }
  });

  it('a replayed callback is refused: the browser was told to forget the login, and the provider takes a code once', async () => {
    const { login } = account();
    const first = await signIn(login);
    const tokenRequests = idp.tokenRequests;
    const forgotten = first.callback.cookies.find((c) => c.startsWith(first.browserCookie.replace(/=.*/, '=')));
    expect(forgotten).toMatch(/=; Path=\/auth\/oidc; Max-Age=0/);

    // The browser replays it without the cookie it was told to forget: refused before the provider is asked.
    expect(refusal(await finish(first.callbackUrl, ''))).toMatch(/expired or was already used/);
    expect(idp.tokenRequests).toBe(tokenRequests);
    // Someone who kept the cookie: the provider refuses the used code, and no session is started.
    expect(refusal(await finish(first.callbackUrl, first.browserCookie))).toMatch(/did not pass the checks/);
  });

  it('a callback without state, with an unknown state, or from another browser is refused', async () => {
    const { login, email } = account();
    const start = await call({ method: 'GET', path: '/auth/oidc/login' });
    const callbackUrl = await providerBrowser().signIn(start.headers.location as string, login);
    const browserCookie = cookiePair(start.cookies[0]);
    const withoutState = new URL(callbackUrl);
    withoutState.searchParams.delete('state');
    const otherState = new URL(callbackUrl);
    otherState.searchParams.set('state', 'made-up');

    expect(refusal(await finish(withoutState, browserCookie))).toMatch(/expired or was already used/);
    expect(refusal(await finish(otherState, browserCookie))).toMatch(/expired or was already used/);
    const otherBrowser = browserCookie.replace(/=.*/, '=another-browser');
    expect(refusal(await finish(callbackUrl, otherBrowser))).toMatch(/another browser/);
    // Another login's sealed cookie under this state's name: it opens, but names another state.
    const other = await call({ method: 'GET', path: '/auth/oidc/login' });
    const swapped = browserCookie.replace(/=.*/, `=${cookiePair(other.cookies[0]).replace(/^[^=]+=/, '')}`);
    expect(refusal(await finish(callbackUrl, swapped))).toMatch(/another browser/);
    expect(await userNamed(email)).toBeUndefined();
  });

  it('a login under way expires after its TTL (the clock moves, nothing sleeps)', async () => {
    const { login, email } = account();
    const start = await call({ method: 'GET', path: '/auth/oidc/login' });
    const callbackUrl = await providerBrowser().signIn(start.headers.location as string, login);

    clockOffsetMs = LOGIN_UNDER_WAY_TTL_MS + 1000;
    try {
      expect(refusal(await finish(callbackUrl, cookiePair(start.cookies[0])))).toMatch(/expired/);
    } finally {
      clockOffsetMs = 0;
    }
    expect(await userNamed(email)).toBeUndefined();
  });

  it('an unknown user is refused while autoCreate is off, and one outside emailDomains while it is on', async () => {
    const { login, email } = account();
    await configure({ autoCreate: false });
    try {
      expect(refusal((await signIn(login)).callback)).toMatch(/no user with the e-mail address/);
      await configure({ emailDomains: 'example.org' });
      expect(refusal((await signIn(login)).callback)).toMatch(/example\.com are not created automatically/);
      expect(await userNamed(email)).toBeUndefined();
    } finally {
      await configure();
    }
  });

  it('an unverified e-mail address is refused', async () => {
    const login = unique('unverified');
    idp.accounts.set(login, { email: `${login}@example.com`, email_verified: false });

    expect(refusal((await signIn(login)).callback)).toMatch(/not verified/);
    expect(await userNamed(`${login}@example.com`)).toBeUndefined();
  });

  it('the provider refusing (an error in the callback) is shown as such', async () => {
    const start = await call({ method: 'GET', path: '/auth/oidc/login' });
    const state = new URL(start.headers.location as string).searchParams.get('state')!;

    const res = await finish(new URL(`${UNLEASH_URL}/auth/oidc/callback?error=access_denied&error_description=nope&state=${state}`), cookiePair(start.cookies[0]));

    expect(refusal(res)).toMatch(/refused the sign-in: nope/);
  });
});

describe('an unreachable provider, and OIDC off', () => {
  it('the login page says the provider cannot be reached; the rest of the service keeps working', async () => {
    await configure({ discoverUrl: 'http://127.0.0.1:9/.well-known/openid-configuration' });
    try {
      const start = await call({ method: 'GET', path: '/auth/oidc/login' });

      expect(refusal(start)).toMatch(/could not be reached/);
      const unauthenticated = await call({ method: 'GET', path: '/api/admin/user' });
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body.options).toEqual([{ type: 'oidc', message: 'Sign in with OpenID Connect', path: `${UNLEASH_URL}/auth/oidc/login` }]);
      expect((await call({ method: 'GET', path: '/api/admin/projects', token })).status).toBe(200);
    } finally {
      await configure();
    }
  });

  it('with OIDC off, the login start is refused, the 401 offers only the password, and UI config says open-source', async () => {
    await configure({ enabled: false });
    try {
      expect(refusal(await call({ method: 'GET', path: '/auth/oidc/login' }))).toMatch(/not enabled/);
      const unauthenticated = await call({ method: 'GET', path: '/api/admin/user' });
      expect(unauthenticated.body).toMatchObject({ type: 'password', path: '/auth/simple/login', defaultHidden: false });
      expect(unauthenticated.body.options).toBeUndefined();
      expect((await call({ method: 'GET', path: '/api/admin/ui-config', token })).body.authenticationType).toBe('open-source');
    } finally {
      await configure();
    }
  });
});

describe('password login turned off (simple-auth settings)', () => {
  it('is refused while OIDC is off, hides the form and refuses password logins while it is on, and counts only while OIDC is on', async () => {
    const person = await userWithPassword(services, 'Viewer');
    const setDisabled = (disabled: boolean) => call({ method: 'POST', path: '/api/admin/auth/simple/settings', token, body: { disabled } });
    const passwordLogin = () => call({ method: 'POST', path: '/auth/simple/login', body: { username: person.username, password: GOOD_PASSWORD } });

    await configure({ enabled: false });
    const refused = await setDisabled(true);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/only be turned off while single sign-on is on/);

    await configure();
    try {
      expect((await setDisabled(true)).body).toEqual({ disabled: true });
      expect((await call({ method: 'GET', path: '/api/admin/auth/simple/settings', token })).body).toEqual({ disabled: true });
      const blocked = await passwordLogin();
      expect(blocked.status).toBe(401);
      expect(blocked.body.message).toMatch(/Password login is disabled/);
      expect((await call({ method: 'GET', path: '/api/admin/user' })).body.defaultHidden).toBe(true);
      expect((await call({ method: 'GET', path: '/api/admin/ui-config', token })).body).toMatchObject({ disablePasswordAuth: true, authenticationType: 'enterprise' });

      // OIDC turned off: the password works again, so nobody is locked out.
      await configure({ enabled: false });
      expect((await passwordLogin()).status).toBe(200);
    } finally {
      await configure();
      await setDisabled(false);
    }
    expect((await passwordLogin()).status).toBe(200);
  });
});

async function createGroup(body: Record<string, unknown>): Promise<number> {
  const res = await call({ method: 'POST', path: '/api/admin/groups', token, body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}

async function memberIds(groupId: number): Promise<number[]> {
  const res = await call({ method: 'GET', path: `/api/admin/groups/${groupId}`, token });
  return (res.body.users as { user: { id: number } }[]).map((member) => member.user.id);
}

