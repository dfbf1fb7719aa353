import { beforeAll, describe, expect, inject, it } from 'vitest';
import { maintenance as maintenanceBuilder } from '../../lib/composition/session-edge.js';
import type { Composition } from '../../lib/composition/composition.js';
import { DynamoMaintenanceStore } from '../../lib/maintenance/dynamo-store.js';
import { MAINTENANCE_CHECK_INTERVAL_MS, MAINTENANCE_MESSAGE } from '../../lib/maintenance/model.js';
import { MaintenanceService } from '../../lib/maintenance/service.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { adminToken, servicesOn, testConfig, unique } from '../support/services.js';
import { cookiePair, logIn, userWithPassword } from '../support/sessions.js';
import { sessions } from '../../lib/composition/session-edge.js';

/*
 * Maintenance mode refuses every change to the admin API: on the run's shared table it would
 * stop every other test file, so these tests run on a table of their own.
 */
const { endpoint } = inject('dynamodb');
const tableName = unique('maintenance');
const config = testConfig({ TABLE_NAME: tableName });

/** A container: its own composition on the table, with its own clock and a count of the flag's reads. */
function container() {
  const clock = { now: new Date() };
  let reads = 0;
  const countingMaintenance = (c: Composition) => {
    const store = new DynamoMaintenanceStore(c.store.db, c.store.tableName);
    return new MaintenanceService({ read: () => { reads += 1; return store.read(); }, write: (enabled, event) => store.write(enabled, event) }, c.now);
  };
  const services: Services = servicesOn(config, { now: () => clock.now, replace: [[maintenanceBuilder, countingMaintenance]] });
  return { services, call: apiClient(services), clock, reads: () => reads };
}

const first = container();
const call = first.call;
let token: string;
let clientToken: string;
beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  await first.services.firstStart.ensure();
  token = await adminToken(first.services);
  clientToken = (await first.services.apiTokens.create({ tokenName: 'sdk', type: 'client', environment: 'development', projects: ['*'] })).secret;
});

const toggle = (enabled: boolean, by = token) => call({ method: 'POST', path: '/api/admin/maintenance', token: by, body: { enabled } });

async function withMaintenance<T>(run: () => Promise<T>): Promise<T> {
  expect((await toggle(true)).status).toBe(204);
  try {
    return await run();
  } finally {
    expect((await toggle(false)).status).toBe(204);
  }
}

describe('GET and POST /api/admin/maintenance', () => {
  it('is off on a fresh instance, turns on and off as stored, and ui-config tells the UI (its banner)', async () => {
    const before = await call({ method: 'GET', path: '/api/admin/maintenance', token });
    const on = await toggle(true);
    const whileOn = [await call({ method: 'GET', path: '/api/admin/maintenance', token }), await call({ method: 'GET', path: '/api/admin/ui-config', token })];
    const off = await toggle(false);
    const afterOff = [await call({ method: 'GET', path: '/api/admin/maintenance', token }), await call({ method: 'GET', path: '/api/admin/ui-config', token })];

    expect(before.body).toEqual({ enabled: false });
    expect([on.status, off.status]).toEqual([204, 204]);
    expect(whileOn.map((res) => res.body.enabled ?? res.body.maintenanceMode)).toEqual([true, true]);
    expect(afterOff.map((res) => res.body.enabled ?? res.body.maintenanceMode)).toEqual([false, false]);
  });

  it("is recorded as Unleash records it: the setting created the first time, updated after, under the actor's name", async () => {
    const events = await call({ method: 'GET', path: '/api/admin/search/events?type=IS_ANY_OF:setting-created,setting-updated&limit=100', token });

    const maintenance = events.body.events.filter((event: { summary: string }) => event.summary.includes('maintenance.mode'));
    expect(maintenance.map((event: { type: string }) => event.type).reverse()).toEqual(
      ['setting-created', ...maintenance.slice(1).map(() => 'setting-updated')],
    );
    expect(maintenance.length).toBeGreaterThanOrEqual(2);
    expect(maintenance[0].summary).toContain('enabled:false');
  });

  it('is for admins only, and takes a boolean', async () => {
    const editor = await first.services.users.create({ username: unique('editor'), rootRole: 'Editor' }, 'test');
    const cookie = cookiePair(await first.services.composition.once(sessions).start(editor));

    const asEditor = await call({ method: 'POST', path: '/api/admin/maintenance', headers: { Cookie: cookie }, body: { enabled: true } });
    const readAsEditor = await call({ method: 'GET', path: '/api/admin/maintenance', headers: { Cookie: cookie } });
    const notBoolean = await call({ method: 'POST', path: '/api/admin/maintenance', token, body: { enabled: 'yes' } });

    expect([asEditor.status, readAsEditor.status, notBoolean.status]).toEqual([403, 403, 400]);
    expect(notBoolean.body.message).toContain('enabled');
    expect((await call({ method: 'GET', path: '/api/admin/maintenance', token })).body).toEqual({ enabled: false });
  });
});

describe('while maintenance mode is on', () => {
  it("refuses every change to the admin API with Unleash's 503 and message, and writes nothing", async () => {
    const project = unique('in-maintenance');
    const answers = await withMaintenance(async () => [
      await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: project, name: project } }),
      await call({ method: 'PUT', path: '/api/admin/projects/default', token, body: { name: 'Renamed in maintenance' } }),
      await call({ method: 'PATCH', path: '/api/admin/projects/default/features/nothing', token, body: [] }),
      await call({ method: 'DELETE', path: '/api/admin/tag-types/simple', token }),
      await call({ method: 'POST', path: '/api/admin/splash/personalDashboardKeyConcepts', token }),
    ]);

    for (const res of answers) {
      expect(res.status, res.text).toBe(503);
      expect(res.body).toMatchObject({ name: 'MaintenanceModeError', message: MAINTENANCE_MESSAGE });
      expect(res.headers['retry-after']).toBeUndefined();
    }
    expect((await call({ method: 'GET', path: `/api/admin/projects/${project}`, token })).status).toBe(404);
    expect((await call({ method: 'GET', path: '/api/admin/tag-types/simple', token })).status).toBe(200);
  });

  it('keeps reads, logins, logout and the SDK API working; an anonymous change still gets its 401', async () => {
    const person = await userWithPassword(first.services, 'Admin');
    const answers = await withMaintenance(async () => {
      const cookie = await logIn(call, person.username as string);
      return {
        read: await call({ method: 'GET', path: '/api/admin/projects', headers: { Cookie: cookie } }),
        me: await call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookie } }),
        poll: await call({ method: 'GET', path: '/api/client/features', token: clientToken }),
        register: await call({
          method: 'POST', path: '/api/client/register', token: clientToken,
          body: { appName: unique('app'), instanceId: 'i-1', interval: 10_000, started: new Date().toISOString(), strategies: ['default'] },
        }),
        logout: await call({ method: 'POST', path: '/logout', headers: { Cookie: cookie, Origin: 'http://localhost:4242', 'Sec-Fetch-Site': 'same-origin' } }),
        anonymous: await call({ method: 'POST', path: '/api/admin/projects', body: { id: 'x', name: 'x' } }),
      };
    });

    expect(Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status]))).toEqual({
      read: 200, me: 200, poll: 200, register: 202, logout: 302, anonymous: 401,
    });
  });

  it('lets changes through again once turned off', async () => {
    const project = unique('after-maintenance');
    await withMaintenance(async () => undefined);

    expect((await call({ method: 'POST', path: '/api/admin/projects', token, body: { id: project, name: project } })).status).toBe(201);
  });
});

describe('what the flag costs and how fast it travels', () => {
  it('is read only when a change comes in, at most once per interval per container', async () => {
    const other = container();
    const otherToken = await adminToken(other.services);

    for (let i = 0; i < 10; i += 1) await other.call({ method: 'GET', path: '/api/admin/projects', token: otherToken });
    const afterReads = other.reads();
    for (let i = 0; i < 5; i += 1) await other.call({ method: 'POST', path: '/api/admin/tag-types', token: otherToken, body: { name: unique('t') } });
    const afterChanges = other.reads();
    other.clock.now = new Date(other.clock.now.getTime() + MAINTENANCE_CHECK_INTERVAL_MS);
    await other.call({ method: 'POST', path: '/api/admin/tag-types', token: otherToken, body: { name: unique('t') } });

    expect(afterReads).toBe(0);
    expect(afterChanges).toBe(1);
    expect(other.reads()).toBe(2);
  });

  it(`reaches another container within ${MAINTENANCE_CHECK_INTERVAL_MS / 1000} s, and the toggling container at once`, async () => {
    const other = container();
    const otherToken = await adminToken(other.services);
    const change = (via: ReturnType<typeof container>, by: string) => via.call({ method: 'POST', path: '/api/admin/tag-types', token: by, body: { name: unique('t') } });
    expect((await change(other, otherToken)).status).toBe(201);

    const [here, thereAtOnce, thereAfterInterval] = await withMaintenance(async () => {
      const atOnce = await change(first, token);
      const stale = await change(other, otherToken);
      other.clock.now = new Date(other.clock.now.getTime() + MAINTENANCE_CHECK_INTERVAL_MS);
      return [atOnce, stale, await change(other, otherToken)];
    });

    expect(here.status).toBe(503);
    // Within the interval the other container still holds the flag it read before.
    expect(thereAtOnce.status).toBe(201);
    expect(thereAfterInterval.status).toBe(503);
  });
});
