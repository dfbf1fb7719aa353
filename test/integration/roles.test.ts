import { beforeAll, describe, expect, it } from 'vitest';
import { operationIds, routeTable } from '../../lib/route-table.js';
import type { RootRoleName } from '../../lib/roles/model.js';
import { roleGrants } from '../../lib/roles/permissions.js';
import { apiClient } from '../support/api.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { logIn, userWithPassword } from '../support/sessions.js';

const services = testServices();
const call = apiClient(services);

/** As access-rules.test.ts walks the table: every parameter a plain word, ANY as GET. */
const concretePath = (path: string) => path.replace(/\{(\w+)\+\}/g, 'some/where').replace(/\{\w+\}/g, 'x');
const concreteMethod = (method: string) => (method === 'ANY' ? 'GET' : method);
/** The UI's own pages send their origin; the service's is UNLEASH_URL's (http://localhost:4242 by default). */
const SAME_ORIGIN = { Origin: 'http://localhost:4242' };

const adminRoutes = operationIds.filter((id) => routeTable[id].access.kind === 'admin');
const ROLES: RootRoleName[] = ['Admin', 'Editor', 'Viewer'];
const cookies: Partial<Record<RootRoleName, string>> = {};

beforeAll(async () => {
  for (const role of ROLES) cookies[role] = await logIn(call, (await userWithPassword(services, role)).username as string);
});

describe.each(ROLES)('a %s session on every admin route of the route table', (role) => {
  it.each(adminRoutes)('%s: allowed or refused as the root role maps the route permission', async (id) => {
    const { method, path, access } = routeTable[id];
    const permission = access.kind === 'admin' ? access.permission : 'ADMIN';

    const res = await call({ method: concreteMethod(method), path: concretePath(path), headers: { Cookie: cookies[role] as string, ...SAME_ORIGIN } });

    if (roleGrants(roleIdOf(role), permission)) {
      expect(res.status, `${role} ${method} ${path}: ${res.text}`).not.toBe(403);
      expect(res.status).not.toBe(401);
      // Allowed means answered: a route that fails on a made-up name or an empty body must still
      // answer a 4xx in the error shape, never a server error the walk would wave through.
      expect(res.status, `${role} ${method} ${path}: ${res.text}`).toBeLessThan(500);
    } else {
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ name: 'NoAccessError' });
      expect(res.body.message).toContain(permission);
    }
  });
});

function roleIdOf(role: RootRoleName): 1 | 2 | 3 {
  return ({ Admin: 1, Editor: 2, Viewer: 3 } as const)[role];
}

describe('the root role mapping', () => {
  it('gives Viewers reads only, Editors the flag work but nothing ADMIN, Admins everything', () => {
    expect(roleGrants(3, 'READ_FEATURE')).toBe(true);
    expect(roleGrants(3, 'UPDATE_FEATURE')).toBe(false);
    expect(roleGrants(2, 'CREATE_FEATURE_STRATEGY')).toBe(true);
    expect(roleGrants(2, 'CREATE_SEGMENT')).toBe(true);
    expect(roleGrants(2, 'ADMIN')).toBe(false);
    expect(roleGrants(2, 'CREATE_API_TOKEN')).toBe(false);
    expect(roleGrants(1, 'UPDATE_CORS')).toBe(true);
  });

  it('a Viewer in a group with the Editor root role edits; GET /api/admin/user lists the Editor permissions', async () => {
    const viewer = await userWithPassword(services, 'Viewer');
    const token = await adminToken(services);
    const cookie = await logIn(call, viewer.username as string);
    const name = unique('ctx');
    const before = await call({ method: 'POST', path: '/api/admin/context', headers: { Cookie: cookie, ...SAME_ORIGIN }, body: { name } });

    await call({ method: 'POST', path: '/api/admin/groups', token, body: { name: unique('editors'), rootRole: 2, users: [{ user: { id: viewer.id } }] } });
    const after = await call({ method: 'POST', path: '/api/admin/context', headers: { Cookie: cookie, ...SAME_ORIGIN }, body: { name } });
    const me = await call({ method: 'GET', path: '/api/admin/user', headers: { Cookie: cookie } });

    expect(before.status).toBe(403);
    expect(after.status).toBe(201);
    expect(me.body.permissions).toContainEqual({ permission: 'CREATE_CONTEXT_FIELD' });
  });

  it('a changed root role holds on the next request of the same session', async () => {
    const editor = await userWithPassword(services, 'Editor');
    const cookie = await logIn(call, editor.username as string);
    await services.users.update(editor.id, { rootRole: 'Viewer' }, 'test');

    const res = await call({ method: 'POST', path: '/api/admin/context', headers: { Cookie: cookie, ...SAME_ORIGIN }, body: { name: unique('ctx') } });

    expect(res.status).toBe(403);
  });
});
