import { describe, expect, it } from 'vitest';
import { adminSession } from '../support/api.js';
import { unique } from '../support/services.js';

const { call, token } = adminSession();

describe('GET /api/admin/feature-types', () => {
  it("lists Unleash's five feature types with their expected lifetimes, permanent ones as null", async () => {
    const res = await call({ method: 'GET', path: '/api/admin/feature-types', token });

    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.types.map((type: { id: string; name: string; lifetimeDays: number | null }) => [type.id, type.name, type.lifetimeDays])).toEqual([
      ['release', 'Release', 40],
      ['experiment', 'Experiment', 40],
      ['operational', 'Operational', 7],
      ['kill-switch', 'Kill switch', null],
      ['permission', 'Permission', null],
    ]);
    for (const type of res.body.types) expect(type.description).toEqual(expect.any(String));
  });

  it('needs an admin token: 401 without one, 403 for a client token', async () => {
    const created = await call({
      method: 'POST', path: '/api/admin/api-tokens', token,
      body: { tokenName: unique('sdk'), type: 'client', environment: 'development' },
    });

    expect((await call({ method: 'GET', path: '/api/admin/feature-types' })).status).toBe(401);
    const refused = await call({ method: 'GET', path: '/api/admin/feature-types', token: created.body.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.name).toBe('NoAccessError');
  });
});
