import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';
import { adminOverHttp } from '../support/api.js';
import type { ExpectedFailure } from '../support/browser-faults.js';
import { startIdentityProvider, type Account, type IdentityProvider, type Tamper } from '../support/identity-provider.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { closeWelcome, UiBrowser } from '../support/ui-browser.js';

const ARTIFACTS = 'test-artifacts/oidc-browser';

/** Error answers the UI gets from Unleash too, and lives with; every other one fails the test. */
const EXPECTED: ExpectedFailure[] = [
  {
    method: 'GET',
    path: /^\/api\/admin\/(user|ui-config)$/,
    status: 401,
    // No body test: the context is closed right after, and a body not read by then reads as ''.
    reason: 'after logout the signed-out and login pages (the whole app, loaded afresh) ask who is logged in, in a context that was signed in: the 401 is the point',
  },
];

const STEP = 90_000;
const VIEWER = 3;
const SSO_BUTTON = 'Sign in with OpenID Connect';

interface Me {
  user: { email: string; rootRole: number };
  permissions: Array<{ permission: string }>;
}

/**
 * Issue 17's proof in a real browser: Unleash's admin UI served by `npm start`, a real OpenID
 * provider (oidc-provider) on loopback, and E19 pointing at it. People sign in through the login
 * page's single sign-on button and the provider's own sign-in page; the provider's answers are
 * tampered with for the refusals; logout goes through the provider's end-session page.
 */
describe('single sign-on through a real OpenID provider, in Chromium', () => {
  const adminToken = formatSecret(['*'], '*');
  const tableName = unique('oidc-browser');
  let server: StartedServer;
  let provider: IdentityProvider | undefined;
  let ui: UiBrowser | undefined;
  /** UNLEASH_URL: the callback and the signed-out page the provider knows are under it. */
  let base: string;
  /** The admin API with the admin token: the test's own view of what the service holds. */
  const api = adminOverHttp(() => server.url, adminToken);
  /** The first person's page, signed in through the provider: logged out at the end. */
  let veraPage: Page;
  const vera: Account = { email: `${unique('vera')}@example.com`, name: 'Vera Viewer' };

  beforeAll(async () => {
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    // PORT=0: npm start settles the port first, so UNLEASH_URL is http://localhost:<that port>.
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: tableName,
      INIT_ADMIN_API_TOKENS: adminToken,
    });
    base = `http://localhost:${new URL(server.url).port}`;
    provider = await startIdentityProvider({ redirectUris: [`${base}/auth/oidc/callback`], postLogoutRedirectUris: [`${base}/signed-out`] });
    // Plain http to the provider: the local server allows it, as it runs on DynamoDB Local.
    await api('POST', '/api/admin/auth/oidc/settings', {
      enabled: true,
      discoverUrl: provider.discoverUrl,
      clientId: provider.clients.rs256.clientId,
      secret: provider.clients.rs256.secret,
      autoCreate: true,
      defaultRootRole: 'Viewer',
      enableSingleSignOut: true,
      enableGroupSyncing: true,
      groupJsonPath: 'groups',
      // The provider issues the groups claim for the groups scope only, as Okta does.
      addGroupsScope: true,
    });
    ui = await UiBrowser.launch([base, server.url, provider.issuer], EXPECTED, ARTIFACTS);
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await ui?.close();
    await provider?.close();
    await server?.stop();
  });

  afterEach(async () => {
    if (provider) provider.tamper = 'none';
    expect((await ui?.faults.take()) ?? []).toEqual([]);
  });

  async function userNamed(email: string): Promise<{ id: number; rootRole: number } | undefined> {
    const { users } = await api('GET', '/api/admin/user-admin');
    return (users as Array<{ id: number; email: string; rootRole: number }>).find((user) => user.email === email);
  }

  /** A fresh browser context: its own cookies, at the service and at the provider. */
  const person = (who: string) => ui!.person(who);
  const shot = (page: Page, name: string) => ui!.shot(page, name);

  /**
   * From the UI's login page through the single sign-on button to the provider's sign-in page,
   * signed in there as `login` (after `atProvider`, when given); resolves once the provider has
   * sent the browser back.
   */
  async function throughProvider(page: Page, login: string, atProvider?: () => Promise<void>): Promise<void> {
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: SSO_BUTTON }).click();
    await page.waitForURL(`${provider!.issuer}/interaction/**`);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password will do');
    await atProvider?.();
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL(`${base}/**`);
  }

  /** A first login through the provider, to the dashboard (its welcome dialog closed, as once per user). */
  async function signInFirstTime(page: Page, signedIn: () => void, login: string, atProvider?: () => Promise<void>): Promise<void> {
    await throughProvider(page, login, atProvider);
    signedIn();
    await closeWelcome(page);
  }

  /** What the page's session is, as the UI asks; undefined when it has none. */
  async function sessionOf(page: Page): Promise<Me | undefined> {
    const res = await page.request.get(`${base}/api/admin/user`);
    if (res.status() === 401) return undefined;
    expect(res.status()).toBe(200);
    return res.json();
  }

  const permissions = (me: Me | undefined): string[] | undefined => me?.permissions.map(({ permission }) => permission);

  /** A login refused: back on the UI's login page, which shows why, with no session. */
  async function expectRefused(page: Page, message: RegExp): Promise<void> {
    await page.waitForURL(/\/login\?errorMsg=/);
    await page.getByRole('alert').filter({ hasText: message }).waitFor();
    await page.getByRole('link', { name: SSO_BUTTON }).waitFor();
    expect(await sessionOf(page)).toBeUndefined();
  }

  it('the login page offers single sign-on; a new person signs in at the provider and is created, a Viewer', async () => {
    provider!.accounts.set('vera', vera);
    const { page, signedIn } = await person('vera');
    veraPage = page;
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: SSO_BUTTON }).waitFor();
    await page.locator('#password').waitFor();
    await shot(page, 'login-page');
    expect(await userNamed(vera.email)).toBeUndefined();

    await signInFirstTime(page, signedIn, 'vera', () => shot(page, 'provider-sign-in'));
    await shot(page, 'signed-in');

    const me = await sessionOf(page);
    expect(me?.user).toMatchObject({ email: vera.email, rootRole: VIEWER });
    expect(permissions(me)).not.toContain('ADMIN');
    expect(await userNamed(vera.email)).toMatchObject({ rootRole: VIEWER });
  }, STEP);

  it("group syncing: the provider's groups claim makes the person a member of the mapped group, with its Admin role, and a later login without it removes them", async () => {
    const group = await api('POST', '/api/admin/groups', { name: unique('flag-admins'), mappingsSSO: ['flag-admins'], rootRole: 1 });
    const gus: Account = { email: `${unique('gus')}@example.com`, name: 'Gus Groups', groups: ['flag-admins'] };
    provider!.accounts.set('gus', gus);
    const members = async () => {
      const { users } = await api('GET', `/api/admin/groups/${group.id}`);
      return (users as Array<{ user: { email: string } }>).map(({ user }) => user.email);
    };

    const first = await person('gus');
    await signInFirstTime(first.page, first.signedIn, 'gus');
    expect(await members()).toEqual([gus.email]);
    const me = await sessionOf(first.page);
    expect(me?.user).toMatchObject({ email: gus.email, rootRole: VIEWER });
    expect(permissions(me)).toContain('ADMIN');
    // The group's Admin role shows in the UI: the admin settings are in the menu.
    await first.page.goto(`${base}/admin/users`);
    await first.page.locator('tr', { hasText: gus.email }).waitFor();
    await shot(first.page, 'group-admin-sees-users');
    await first.page.context().close();

    gus.groups = [];
    const second = await person('gus again');
    await throughProvider(second.page, 'gus');
    second.signedIn();
    await second.page.getByTestId('HEADER_USER_AVATAR').waitFor();
    expect(await members()).toEqual([]);
    expect(permissions(await sessionOf(second.page))).not.toContain('ADMIN');
    await second.page.context().close();
  }, STEP);

  const tampered: Array<{ mode: Tamper; what: string; message: RegExp }> = [
    { mode: 'other-key', what: 'an ID token signed with another key', message: /did not pass the checks.*signature verification failed/ },
    { mode: 'audience', what: 'an ID token for another client', message: /did not pass the checks.*"aud"/ },
    { mode: 'expired', what: 'an expired ID token', message: /did not pass the checks.*"exp"/ },
    { mode: 'nonce', what: 'an ID token with the wrong nonce', message: /did not pass the checks.*"nonce"/ },
  ];
  it.each(tampered)('$what is refused: the login page says so, nobody is signed in or created', async ({ mode, message }) => {
    const login = `mallory-${mode}`;
    const account: Account = { email: `${unique(login)}@example.com` };
    provider!.accounts.set(login, account);
    provider!.tamper = mode;
    const { page } = await person(login);
    await throughProvider(page, login);
    await expectRefused(page, message);
    await shot(page, `refused-${mode}`);
    expect(await userNamed(account.email)).toBeUndefined();
    await page.context().close();
  }, STEP);

  it('a login whose sealed cookie was changed in the browser is refused when it comes back', async () => {
    const account: Account = { email: `${unique('slow')}@example.com` };
    provider!.accounts.set('slow', account);
    const { page } = await person('slow');
    await throughProvider(page, 'slow', async () => {
      // While the person is at the provider's sign-in page, the login under way in its cookie is altered.
      // The cookie is scoped to the login's own path, so only a URL under it lists it.
      const cookies = await page.context().cookies(`${base}/auth/oidc/callback`);
      const login = cookies.find((cookie) => cookie.name.startsWith('unleash-oidc-login-'));
      expect(login?.httpOnly).toBe(true);
      await page.context().addCookies([{ ...login!, value: `${login!.value.slice(0, -4)}AAAA` }]);
    });
    await expectRefused(page, /expired or was already used/);
    await shot(page, 'refused-altered-login');
    expect(await userNamed(account.email)).toBeUndefined();
    await page.context().close();
  }, STEP);

  it("logout with single sign-out passes through the provider's end-session page to the signed-out page, and the session is gone", async () => {
    const page = veraPage;
    await page.goto(`${base}/`);
    const session = (await page.context().cookies(base)).map(({ name, value }) => `${name}=${value}`).join('; ');
    const withSession = () => fetch(`${server.url}/api/admin/user`, { headers: { Cookie: session } });
    expect((await withSession()).status).toBe(200);
    await page.getByTestId('HEADER_USER_AVATAR').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${provider!.issuer}/**`);
    await shot(page, 'provider-sign-out');
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await page.waitForURL(`${base}/signed-out`);
    await shot(page, 'signed-out');

    // The browser forgot its cookie, and the session it held is over at the service too.
    expect(await sessionOf(page)).toBeUndefined();
    expect((await withSession()).status).toBe(401);
    // Signed out at the provider as well: single sign-on asks for the sign-in again.
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: SSO_BUTTON }).click();
    await page.locator('input[name="login"]').waitFor();
    await page.context().close();
  }, STEP);

  it('with password login turned off, the login page offers single sign-on alone', async () => {
    expect(await api('POST', '/api/admin/auth/simple/settings', { disabled: true })).toEqual({ disabled: true });
    const { page } = await person('anyone');
    await page.goto(`${base}/`);
    await page.getByRole('link', { name: SSO_BUTTON }).waitFor();
    await shot(page, 'password-login-off');
    expect(await page.locator('#password').count()).toBe(0);
    await page.context().close();
  }, STEP);
});
