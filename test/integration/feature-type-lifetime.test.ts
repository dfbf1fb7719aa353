import { beforeAll, describe, expect, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { apiClient } from '../support/api.js';
import { isolatedServices, putFeature } from '../support/client.js';
import { adminToken, unique } from '../support/services.js';

/**
 * A flag type's expected lifetime, as Admin settings → Flag types saves it, and the
 * potentially-stale state that ages by it.
 */
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  // A table of its own: a lifetime applies to every flag of the table.
  services = await isolatedServices();
  call = apiClient(services);
  token = await adminToken(services);
});

const setLifetime = (type: string, lifetimeDays: unknown) =>
  call({ method: 'PUT', path: `/api/admin/feature-types/${type}/lifetime`, token, body: { lifetimeDays } });
const typeOf = async (id: string) =>
  ((await call({ method: 'GET', path: '/api/admin/feature-types', token })).body.types as Array<{ id: string; lifetimeDays: number | null }>).find((type) => type.id === id);
const potentiallyStale = async (name: string) => {
  const res = await call({ method: 'GET', path: `/api/admin/search/features?query=${name}&state=IS:potentially-stale`, token });
  return (res.body.features as Array<{ name: string }>).some((feature) => feature.name === name);
};
const DAY_MS = 24 * 60 * 60 * 1000;

describe('a flag type lifetime', () => {
  it('saves, answers the type as Unleash does, lists it, and writes feature-type-updated', async () => {
    const res = await setLifetime('operational', 3);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'operational', name: 'Operational', description: expect.any(String), lifetimeDays: 3 });
    expect(await typeOf('operational')).toMatchObject({ lifetimeDays: 3 });
    const events = await call({ method: 'GET', path: '/api/admin/search/events?type=IS:feature-type-updated', token });
    expect(events.body.events.map((event: { type: string }) => event.type)).toContain('feature-type-updated');
  });

  it('decides which flags are potentially stale, and null makes a type never age', async () => {
    // Ten days old, whatever today is: older than a 5-day lifetime, younger than a 20-day one.
    const name = unique('experiment-flag');
    await putFeature(services, { name, type: 'experiment', createdAt: new Date(Date.now() - 10 * DAY_MS).toISOString() });

    await setLifetime('experiment', 20);
    expect(await potentiallyStale(name)).toBe(false);
    await setLifetime('experiment', 5);
    expect(await potentiallyStale(name)).toBe(true);
    await setLifetime('experiment', null);
    expect(await potentiallyStale(name)).toBe(false);
    expect(await typeOf('experiment')).toMatchObject({ lifetimeDays: null });
  });

  it('refuses a negative or fractional lifetime (400) and an unknown type (404)', async () => {
    const negative = await setLifetime('release', -1);
    const fraction = await setLifetime('release', 1.5);
    const unknown = await setLifetime(unique('type'), 3);

    expect([negative.status, negative.body.name]).toEqual([400, 'ValidationError']);
    expect(negative.body.message).toContain('lifetimeDays');
    expect(fraction.status).toBe(400);
    expect([unknown.status, unknown.body.name]).toEqual([404, 'NotFoundError']);
    expect(await typeOf('release')).toMatchObject({ lifetimeDays: 40 });
  });
});
