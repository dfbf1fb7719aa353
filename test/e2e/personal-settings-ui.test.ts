import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';
import type { ExpectedFailure } from '../support/browser-faults.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { closeWelcome, UiBrowser, UI_WAIT } from '../support/ui-browser.js';

const ARTIFACTS = 'test-artifacts/personal-settings-ui';
/** Generous bound for a step on a loaded two-core machine; a step ends as soon as it is done. */
const STEP = 180_000;

/** Error answers the UI gets from Unleash 7.6.5 too; every other one fails the test. */
const EXPECTED: ExpectedFailure[] = [
  {
    method: 'GET', path: /^\/api\//, status: 503, body: /"name":"ServiceUnavailable"/,
    reason: "the service's own 'not now' for a read DynamoDB Local could not serve in time on an overloaded machine; the UI's fetcher retries a failed read. Writes are never excused",
  },
  {
    method: 'POST', path: /^\/api\/admin\/projects$/, status: 503, body: /"name":"MaintenanceModeError"/,
    reason: "this test's own change sent with the page's session while maintenance mode is on: the refusal it checks",
  },
];

/** The banner Unleash 7.6.5's UI shows while ui-config says maintenanceMode (its default message). */
const MAINTENANCE_BANNER = 'During maintenance mode, any changes made will not be saved';

/**
 * What the admin UI keeps per person and for the instance, in Chromium against `npm start` on a
 * table of its own: a personal API token made on the profile page works as its user; the welcome
 * dialog closed once stays closed in a new browser; maintenance mode shows the UI's banner.
 */
describe("a person's own settings and maintenance mode in Unleash's admin UI, in Chromium", () => {
  const adminPassword = `Admin-${randomBytes(12).toString('base64url')}`;
  const adminToken = `*:*.${randomBytes(16).toString('hex')}`;
  let server: StartedServer;
  let ui: UiBrowser | undefined;

  beforeAll(async () => {
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('personal-settings-ui'),
      UNLEASH_DEFAULT_ADMIN_PASSWORD: adminPassword,
      INIT_ADMIN_API_TOKENS: adminToken,
    });
    ui = await UiBrowser.launch([server.url], EXPECTED, ARTIFACTS);
  });

  // Runs last (after hooks run as a stack): whatever beforeAll got to, even a start that timed out.
  afterAll(stopStartedServers);
  afterAll(async () => {
    await ui?.close();
    await server?.stop();
  });

  afterEach(async () => {
    expect((await ui?.faults.take()) ?? []).toEqual([]);
  });

  const api = (method: string, path: string, token: string, body?: unknown) => fetch(`${server.url}${path}`, {
    method, headers: { Authorization: token, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

  /** Logs the admin in through the login form in a fresh browser context, to the dashboard. */
  async function adminLogsIn(who: string): Promise<Page> {
    const { page, signedIn } = await ui!.person(who);
    await page.goto(`${server.url}/`);
    await page.locator('#username').fill('admin');
    await page.locator('#password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('HEADER_USER_AVATAR').waitFor();
    signedIn();
    return page;
  }

  let firstBrowser: Page;

  it('the admin closes the welcome dialog and makes a personal API token on the profile page, which then works as them', async () => {
    firstBrowser = await adminLogsIn('admin');
    await closeWelcome(firstBrowser);
    const description = unique('terraform');

    await firstBrowser.goto(`${server.url}/profile/personal-api-tokens`);
    await firstBrowser.getByRole('button', { name: 'New token' }).click();
    await firstBrowser.getByLabel('Description').fill(description);
    const created = firstBrowser.waitForResponse((res) => new URL(res.url()).pathname === '/api/admin/user/tokens' && res.request().method() === 'POST');
    await firstBrowser.getByRole('button', { name: 'Create token' }).click();
    const answer = await created;
    await ui!.shot(firstBrowser, 'personal-api-token-created');

    expect(answer.status()).toBe(201);
    const { secret } = await answer.json();
    const asToken = await api('GET', '/api/admin/user', secret);
    expect(asToken.status).toBe(200);
    expect(((await asToken.json()) as { user: { username: string } }).user.username).toBe('admin');
    await firstBrowser.goto(`${server.url}/profile/personal-api-tokens`);
    await firstBrowser.getByText(description).waitFor();
  }, STEP);

  it('a new browser logged in as the same person does not show the welcome dialog again', async () => {
    const second = await adminLogsIn('admin, second browser');
    const me = await (await second.request.get(`${server.url}/api/admin/user`)).json();
    // The dashboard has read everything it asks for before the dialog is looked for.
    await second.waitForLoadState('networkidle', { timeout: UI_WAIT });
    await ui!.shot(second, 'second-browser-dashboard');

    expect(me.splash).toEqual({ personalDashboardKeyConcepts: true });
    expect(await second.getByRole('button', { name: "Got it, let's get started!" }).count()).toBe(0);
    await second.context().close();
  }, STEP);

  it('maintenance mode shows the banner on every page until it is turned off', async () => {
    expect((await api('POST', '/api/admin/maintenance', adminToken, { enabled: true })).status).toBe(204);
    await firstBrowser.goto(`${server.url}/projects`);
    await firstBrowser.getByText(MAINTENANCE_BANNER).waitFor();
    await ui!.shot(firstBrowser, 'maintenance-banner');
    const refused = await firstBrowser.request.post(`${server.url}/api/admin/projects`, {
      data: { id: unique('p'), name: 'in maintenance' }, headers: { Origin: server.url },
    });

    expect(refused.status()).toBe(503);
    expect((await api('POST', '/api/admin/maintenance', adminToken, { enabled: false })).status).toBe(204);
    await firstBrowser.reload();
    await firstBrowser.getByTestId('HEADER_USER_AVATAR').waitFor();
    await firstBrowser.getByText(MAINTENANCE_BANNER).waitFor({ state: 'detached' });
  }, STEP);
});
