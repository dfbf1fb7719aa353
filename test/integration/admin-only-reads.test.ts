import { beforeAll, describe, expect, it } from 'vitest';
import type { RootRoleName } from '../../lib/roles/model.js';
import { apiClient } from '../support/api.js';
import { testServices } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

// Two reads the admin UI makes only from Admin pages (the instance statistics in Admin settings,
// the user and group picker of the project access dialogs): every user's e-mail address, and a
// count that reads the whole table. They are the Admin root role's alone.
const services = testServices();
const call = apiClient(services);
const sessions: Partial<Record<RootRoleName, string>> = {};
const people: Partial<Record<RootRoleName, { id: number; email?: string | null }>> = {};

beforeAll(async () => {
  for (const role of ['Admin', 'Editor', 'Viewer'] as const) {
    const user = await userWithPassword(services, role);
    people[role] = user;
    sessions[role] = await logIn(call, user.username as string);
  }
});

const asRole = (role: RootRoleName, path: string) => call({ method: 'GET', path, headers: { Cookie: sessions[role] as string } });

describe.each(['/api/admin/user-admin/access', '/api/admin/instance-admin/statistics'])('GET %s', (path) => {
  it.each(['Viewer', 'Editor'] as const)('is refused to the %s role: 403 naming ADMIN, and no data', async (role) => {
    const res = await asRole(role, path);

    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ name: 'NoAccessError' });
    expect(res.body.message).toContain('ADMIN');
    expect(res.text).not.toContain(people.Viewer!.email as string);
    expect(res.body).not.toHaveProperty('users');
  });
});

describe('an Admin', () => {
  it("reads the users and groups with their e-mail addresses", async () => {
    const res = await asRole('Admin', '/api/admin/user-admin/access');

    expect(res.status).toBe(200);
    expect(res.body.users).toContainEqual(expect.objectContaining({ id: people.Viewer!.id, email: people.Viewer!.email }));
    expect(res.body.groups).toEqual(expect.any(Array));
  });

  it('reads the instance statistics, counting these users', async () => {
    const res = await asRole('Admin', '/api/admin/instance-admin/statistics');

    expect(res.status).toBe(200);
    expect(res.body.users).toBeGreaterThanOrEqual(3);
    expect(res.body.sum).toMatch(/^[0-9a-f]{64}$/);
  });
});
