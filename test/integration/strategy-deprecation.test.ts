import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices } from '../support/client.js';
import { adminToken, unique } from '../support/services.js';

/**
 * The strategy types page: deprecating and reactivating a type (built-in ones too, the default
 * strategy included, as Unleash 7.6.5 allows), each change recorded with Unleash's event type.
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  // A table of its own: deprecating the default strategy must not reach other files' tests.
  services = await isolatedServices();
  call = apiClient(services);
  token = await adminToken(services);
});

const listed = async (name: string) =>
  ((await call({ method: 'GET', path: '/api/admin/strategies', token })).body.strategies as Array<{ name: string; deprecated: boolean }>)
    .find((strategy) => strategy.name === name);
/** The events naming `name` (a strategy type's events name it among their changes, so the log's summary shows it). */
const eventTypesFor = async (name: string) => {
  const res = await call({ method: 'GET', path: '/api/admin/search/events?limit=1000', token });
  return (res.body.events as Array<{ type: string; summary: string }>).filter((event) => event.summary.includes(`**${name}**`)).map((event) => event.type);
};

describe('deprecating and reactivating a strategy type', () => {
  it('a custom type is listed deprecated, then active again, with strategy-deprecated and strategy-reactivated events', async () => {
    const name = unique('tenants');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name, parameters: [] } });

    const deprecated = await call({ method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token });

    expect(deprecated.status).toBe(200);
    expect(await listed(name)).toMatchObject({ deprecated: true });
    expect((await call({ method: 'POST', path: `/api/admin/strategies/${name}/reactivate`, token })).status).toBe(200);
    expect(await listed(name)).toMatchObject({ deprecated: false });
    expect(await eventTypesFor(name)).toEqual(expect.arrayContaining(['strategy-created', 'strategy-deprecated', 'strategy-reactivated']));
  });

  it('a built-in type, the default strategy included, can be deprecated and reactivated', async () => {
    const deprecated = await call({ method: 'POST', path: '/api/admin/strategies/default/deprecate', token });

    expect(deprecated.status).toBe(200);
    expect(await listed('default')).toMatchObject({ deprecated: true });
    expect((await call({ method: 'POST', path: '/api/admin/strategies/default/reactivate', token })).status).toBe(200);
    expect(await listed('default')).toMatchObject({ deprecated: false });
    expect(await eventTypesFor('default')).toEqual(expect.arrayContaining(['strategy-deprecated', 'strategy-reactivated']));
  });

  it('answers 404 for a type that does not exist, recording nothing', async () => {
    const name = unique('nosuch');

    const res = await call({ method: 'POST', path: `/api/admin/strategies/${name}/deprecate`, token });

    expect([res.status, res.body.name]).toEqual([404, 'NotFoundError']);
    expect(await eventTypesFor(name)).toEqual([]);
  });

  it('updating and deleting a custom type write strategy-updated and strategy-deleted', async () => {
    const name = unique('regions');
    await call({ method: 'POST', path: '/api/admin/strategies', token, body: { name, parameters: [] } });

    await call({ method: 'PUT', path: `/api/admin/strategies/${name}`, token, body: { name, description: 'by region', parameters: [] } });
    const deleted = await call({ method: 'DELETE', path: `/api/admin/strategies/${name}`, token });

    expect(deleted.status).toBe(200);
    expect(await eventTypesFor(name)).toEqual(expect.arrayContaining(['strategy-updated', 'strategy-deleted']));
  });
});
