import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { installedUi, UI_FETCH_COMMAND } from '../../lib/ui/release.js';
import type { ExpectedFailure } from '../support/browser-faults.js';
import { startServerProcess, stopStartedServers, type StartedServer } from '../support/local-server.js';
import { unique } from '../support/services.js';
import { closeWelcome, UiBrowser } from '../support/ui-browser.js';

const ARTIFACTS = 'test-artifacts/unknown-flags-ui';
/** Generous bound for a step on a loaded two-core machine; a step ends as soon as it is done. */
const STEP = 180_000;

/** Error answers the UI gets from Unleash 7.6.5 too; every other one fails the test. */
const EXPECTED: ExpectedFailure[] = [
  {
    method: 'GET', path: /^\/api\//, status: 503, body: /"name":"ServiceUnavailable"/,
    reason: "the service's own 'not now' for a read DynamoDB Local could not serve in time on an overloaded machine; the UI's fetcher retries a failed read. Writes are never excused",
  },
];

/**
 * Unleash 7.6.5's "Unknown flags" page in Chromium against `npm start` on a table of its own: a
 * name an SDK reported through the real metrics route and both local metrics stages shows as a
 * row, and a flag reported beside it does not.
 */
describe("the unknown flags page of Unleash's admin UI, in Chromium", () => {
  const adminPassword = `Admin-${randomBytes(12).toString('base64url')}`;
  const adminToken = `*:*.${randomBytes(16).toString('hex')}`;
  let server: StartedServer;
  let ui: UiBrowser | undefined;

  beforeAll(async () => {
    if (!installedUi()) throw new Error(`The admin UI is not installed: run \`${UI_FETCH_COMMAND}\``);
    server = await startServerProcess({
      DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
      TABLE_NAME: unique('unknown-flags-ui'),
      UNLEASH_DEFAULT_ADMIN_PASSWORD: adminPassword,
      INIT_ADMIN_API_TOKENS: adminToken,
      LOCAL_METRICS_WINDOW_MS: '100',
    });
    ui = await UiBrowser.launch([server.url], EXPECTED, ARTIFACTS);
  }, STEP);

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

  it('shows a name an SDK reported that is no flag, and not the flag reported beside it', async () => {
    const known = unique('known');
    expect((await api('POST', '/api/admin/projects/default/features', adminToken, { name: known })).status).toBe(201);
    const created = await api('POST', '/api/admin/api-tokens', adminToken, { tokenName: unique('sdk'), type: 'client', environment: 'development', projects: ['*'] });
    expect(created.status).toBe(201);
    const { secret } = await created.json() as { secret: string };
    const typo = unique('checkout-typo');
    const now = new Date();
    const reported = await api('POST', '/api/client/metrics', secret, {
      appName: 'web-shop', instanceId: 'i-1',
      bucket: { start: new Date(now.getTime() - 1000).toISOString(), stop: now.toISOString(), toggles: { [typo]: { yes: 0, no: 4 }, [known]: { yes: 1, no: 0 } } },
    });
    expect(reported.status).toBe(202);
    // The local store stage writes it after its queue windows; the API lists it from then on.
    await expect.poll(async () => {
      const res = await api('GET', '/api/admin/metrics/unknown-flags', adminToken);
      return ((await res.json()) as { unknownFlags: Array<{ name: string }> }).unknownFlags.map((flag) => flag.name);
    }, { timeout: STEP, interval: 250 }).toContain(typo);

    const { page, signedIn } = await ui!.person('admin');
    await page.goto(`${server.url}/login`);
    await page.locator('#username').fill('admin');
    await page.locator('#password').fill(adminPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('HEADER_USER_AVATAR').waitFor();
    signedIn();
    // The first login's welcome dialog would hide the page from the accessibility tree.
    await closeWelcome(page);
    const listed = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/admin/metrics/unknown-flags');
    await page.goto(`${server.url}/unknown-flags`);
    expect((await listed).status()).toBe(200);

    await page.getByRole('heading', { name: 'Unknown flags (1)' }).waitFor();
    await page.getByRole('cell', { name: typo }).waitFor();
    expect(await page.getByRole('cell', { name: known }).count()).toBe(0);
    await ui!.shot(page, 'unknown-flags');
  }, STEP);
});
