import { beforeAll, describe, expect, inject, it } from 'vitest';
import { clientSlice } from '../../lib/client/slice.js';
import { createComposition } from '../../lib/composition/composition.js';
import { clientPorts, clients } from '../../lib/composition/slices/client.js';
import type { Services } from '../../local/app-services.js';
import { APPLICATION_REGISTRATIONS } from '../../lib/limits.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { countsSince } from '../../lib/store/request-counter.js';
import type { Caller } from '../../lib/tokens/model.js';
import { apiClient } from '../support/api.js';
import { sdkToken } from '../support/client.js';
import { adminToken, testConfig, unique, servicesOn } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

/** A clock the test moves: registrations expire by it, not by the wall clock or DynamoDB's TTL sweep. */
const DAY_MS = 24 * 60 * 60 * 1000;
let at = Date.parse('2031-03-10T12:00:00.000Z');
const clock = () => new Date(at);

let services: Services;
let call: ReturnType<typeof apiClient>;
let admin: string;

// A table of its own: the lists here hold exactly what these tests registered. (The page of a
// thousand large applications is measured in application-list-size.test.ts, with the slow tests.)
beforeAll(async () => {
  const tableName = unique('applications-limits');
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodb').endpoint }, tableName);
  services = servicesOn(testConfig({ TABLE_NAME: tableName }), { now: clock });
  await services.firstStart.ensure();
  call = apiClient(services);
  admin = await adminToken(services);
});

const registration = (appName: string, instanceId = 'browser-1', strategies: string[] = ['default']) => ({
  appName, instanceId, sdkVersion: 'unleash-client-js:3.8.2', strategies, started: clock().toISOString(), interval: 30_000,
});

/** A frontend token of its own, so each test fills a token scope nobody else uses. */
async function frontendScope(): Promise<{ token: string; caller: Caller; scope: { environment: string; projects: string[] } }> {
  const project = unique('project');
  await call({ method: 'POST', path: '/api/admin/projects', token: admin, body: { id: project, name: project } });
  const token = await sdkToken(services, { type: 'frontend', projects: [project] });
  return {
    token,
    caller: { tokenName: 'browser', type: 'frontend', environment: 'development', projects: [project] },
    scope: { environment: 'development', projects: [project] },
  };
}

/** The register routes over services whose registrations are capped at `perScope` a token scope. */
function cappedApi(perScope: number) {
  const composition = createComposition(services.config, {
    store: services.composition.store, now: clock,
    replace: [[clients, (c) => clientSlice(c, clientPorts(c), { registrations: { perScope } })]],
  });
  return apiClient({ ...services, composition });
}

const listed = async (query: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/metrics/applications?query=${query}&limit=1000`, token: admin });
  expect(res.status, res.text).toBe(200);
  return (res.body.applications as Array<{ appName: string }>).map((application) => application.appName).sort();
};

describe('registrations per token scope are capped', () => {
  it(`keeps the first ${APPLICATION_REGISTRATIONS.perScope.toLocaleString('en')} applications of a scope by default`, () => {
    expect(APPLICATION_REGISTRATIONS.perScope).toBe(1_000);
  });

  it('refuses a new application past the cap, still answering the SDK 200, while known ones register again and other scopes are not affected', async () => {
    const capped = cappedApi(3);
    const { token } = await frontendScope();
    const other = await frontendScope();
    const prefix = unique('cap');
    const names = [1, 2, 3, 4, 5].map((n) => `${prefix}-${n}`);

    const statuses: number[] = [];
    for (const name of names) {
      statuses.push((await capped({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(name) })).status);
    }
    at += 60_000;
    const again = await capped({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(names[0] as string, 'browser-2') });
    const elsewhere = await capped({ method: 'POST', path: '/api/frontend/client/register', token: other.token, body: registration(names[4] as string) });

    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(again.status).toBe(200);
    expect(elsewhere.status).toBe(200);
    expect(await listed(prefix)).toEqual([names[0], names[1], names[2], names[4]]);
    const first = await call({ method: 'GET', path: `/api/admin/metrics/instances/${names[0]}/environment/development`, token: admin });
    expect(first.body.instances).toEqual([expect.objectContaining({ instanceId: 'browser-2', lastSeen: clock().toISOString() })]);
    const refused = await call({ method: 'GET', path: `/api/admin/metrics/applications/${names[3]}`, token: admin });
    expect(refused.status).toBe(404);
  });

  it('caps the backend SDK register route the same way (202 to the SDK, nothing stored)', async () => {
    const capped = cappedApi(2);
    const project = unique('backend-project');
    await call({ method: 'POST', path: '/api/admin/projects', token: admin, body: { id: project, name: project } });
    const token = await sdkToken(services, { projects: [project] });
    const prefix = unique('backend-cap');

    const statuses: number[] = [];
    for (const n of [1, 2, 3]) {
      statuses.push((await capped({ method: 'POST', path: '/api/client/register', token, body: registration(`${prefix}-${n}`, 'pod-1') })).status);
    }

    expect(statuses).toEqual([202, 202, 202]);
    expect(await listed(prefix)).toEqual([`${prefix}-1`, `${prefix}-2`]);
  });

  it('costs a bounded number of DynamoDB requests whatever the scope holds: one for a repeat the same day, four for a new application, three for a refusal', async () => {
    const { caller } = await frontendScope();
    const { composition } = services;
    const metrics = clientSlice(composition, clientPorts(composition), { registrations: { perScope: 30 } }).clientMetrics;
    const prefix = unique('cost');
    const costOf = async (appName: string) => {
      const before = services.dynamoRequests.snapshot();
      await metrics.register(caller, registration(appName));
      return countsSince(before, services.dynamoRequests.snapshot()).total;
    };

    const newOnes: number[] = [];
    for (let n = 0; n < 30; n += 1) newOnes.push(await costOf(`${prefix}-${n}`));
    const repeat = await costOf(`${prefix}-0`);
    const refused = await costOf(`${prefix}-past-the-cap`);
    at += 2 * DAY_MS;
    const repeatOnAnotherDay = await costOf(`${prefix}-1`);

    expect(new Set(newOnes)).toEqual(new Set([4]));
    expect(repeat).toBe(1);
    expect(refused).toBe(3);
    expect(repeatOnAnotherDay).toBeLessThanOrEqual(3);
    expect(await listed(prefix)).toHaveLength(30);
    expect(await listed(`${prefix}-past`)).toEqual([]);
  });
});

describe('registrations expire', () => {
  it(`are not listed ${APPLICATION_REGISTRATIONS.expiryDays} days after the last registration, and free their place in the scope from the next UTC day`, async () => {
    const capped = cappedApi(2);
    const { token } = await frontendScope();
    const prefix = unique('expiry');
    await capped({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(`${prefix}-old`) });
    at += 10 * DAY_MS;
    await capped({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(`${prefix}-kept`) });
    at += (APPLICATION_REGISTRATIONS.expiryDays - 10) * DAY_MS + 1_000;

    const whileOneExpired = await listed(prefix);
    const gone = await call({ method: 'GET', path: `/api/admin/metrics/applications/${prefix}-old`, token: admin });
    at += DAY_MS;
    const newcomer = await capped({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(`${prefix}-new`) });

    expect(whileOneExpired).toEqual([`${prefix}-kept`]);
    expect(gone.status).toBe(404);
    expect(newcomer.status).toBe(200);
    expect(await listed(prefix)).toEqual([`${prefix}-kept`, `${prefix}-new`]);
  });

  it('carries the table’s TTL attribute, so DynamoDB removes them too', async () => {
    const { token, scope } = await frontendScope();
    const appName = unique('ttl');

    await call({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(appName) });

    const stored = await services.clientApplications.get(appName, scope, clock());
    expect(stored?.expiresAt).toBe(Math.floor((at + APPLICATION_REGISTRATIONS.expiryDays * DAY_MS) / 1000));
  });
});

describe('DELETE /api/admin/metrics/applications/{appName}', () => {
  it('removes the application from every token scope and frees its places', async () => {
    const capped = cappedApi(1);
    const [one, two] = [await frontendScope(), await frontendScope()];
    const appName = unique('deleted');
    await capped({ method: 'POST', path: '/api/frontend/client/register', token: one.token, body: registration(appName) });
    await capped({ method: 'POST', path: '/api/frontend/client/register', token: two.token, body: registration(appName) });

    const res = await call({ method: 'DELETE', path: `/api/admin/metrics/applications/${appName}`, token: admin });
    const again = await call({ method: 'DELETE', path: `/api/admin/metrics/applications/${appName}`, token: admin });
    const newcomer = unique('after-delete');
    await capped({ method: 'POST', path: '/api/frontend/client/register', token: one.token, body: registration(newcomer) });

    expect(res.status, res.text).toBe(200);
    expect(again.status).toBe(200);
    expect(await services.clientApplications.get(appName, one.scope, clock())).toBeUndefined();
    expect(await services.clientApplications.get(appName, two.scope, clock())).toBeUndefined();
    expect((await call({ method: 'GET', path: `/api/admin/metrics/applications/${appName}`, token: admin })).status).toBe(404);
    expect(await listed(newcomer)).toEqual([newcomer]);
  });

  it('needs UPDATE_APPLICATION: a Viewer is refused 403, an Editor (who holds it, as in Unleash) may', async () => {
    const { token } = await frontendScope();
    const appName = unique('guarded');
    await call({ method: 'POST', path: '/api/frontend/client/register', token, body: registration(appName) });
    const viewer = await logIn(call, (await userWithPassword(services, 'Viewer')).username as string);
    const editor = await logIn(call, (await userWithPassword(services, 'Editor')).username as string);

    const refused = await call({ method: 'DELETE', path: `/api/admin/metrics/applications/${appName}`, headers: { Cookie: viewer } });
    const stillThere = await listed(appName);
    const allowed = await call({ method: 'DELETE', path: `/api/admin/metrics/applications/${appName}`, headers: { Cookie: editor } });

    expect(refused.status).toBe(403);
    expect(refused.body.message).toContain('UPDATE_APPLICATION');
    expect(stillThere).toEqual([appName]);
    expect(allowed.status, allowed.text).toBe(200);
    expect(await listed(appName)).toEqual([]);
  });
});
