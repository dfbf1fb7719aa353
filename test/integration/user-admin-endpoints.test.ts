import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { Services } from '../../local/app-services.js';
import { loadConfig } from '../../lib/config.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { accessOverviewSchema, adminCountSchema, inactiveUsersSchema, permissionCatalogueSchema, roleListSchema, usersAndGroupsSchema } from '../../lib/users/schemas.js';
import { apiClient, type ApiResponse } from '../support/api.js';
import { adminToken, unique, servicesOn } from '../support/services.js';
import { GOOD_PASSWORD, logIn, userWithPassword } from '../support/sessions.js';

/**
 * The admin UI's user and access pages (issue 16, deliverable 6), on a table of their own so the
 * counts and the inactive list are this file's alone. The services' clock is moved instead of
 * waiting 180 days.
 */
const DAY_MS = 24 * 60 * 60 * 1000;
let now = new Date();
let services: Services;
let call: ReturnType<typeof apiClient>;
let token: string;

beforeAll(async () => {
  const { endpoint } = inject('dynamodb');
  const tableName = unique('user-admin');
  await prepareLocalTable({ region: 'local', endpoint }, tableName);
  services = servicesOn(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' }), { now: () => now });
  await services.firstStart.ensure();
  call = apiClient(services);
  token = await adminToken(services);
});

const asAdmin = (method: string, path: string, body?: unknown): Promise<ApiResponse> => call({ method, path, body, token });
const asUser = (cookie: string, method: string, path: string, body?: unknown): Promise<ApiResponse> =>
  call({ method, path, body, headers: { Cookie: cookie } });

describe('POST /api/admin/user-admin/{id}/change-password', () => {
  it("sets another user's password: the old one stops working, the new one logs in, and the user's sessions end", async () => {
    const user = await userWithPassword(services, 'Viewer');
    const session = await logIn(call, user.username as string);

    const res = await asAdmin('POST', `/api/admin/user-admin/${user.id}/change-password`, { password: 'Brand-New-Pass-42' });

    expect(res.status).toBe(200);
    expect((await asUser(session, 'GET', '/api/admin/user')).status).toBe(401);
    expect((await call({ method: 'POST', path: '/auth/simple/login', body: { username: user.username, password: GOOD_PASSWORD } })).status).toBe(401);
    expect(await logIn(call, user.username as string, 'Brand-New-Pass-42')).toMatch(/^unleash-session=/);
  });

  it('is an Admin session\'s too, and refused to an Editor (403 naming ADMIN)', async () => {
    const admin = await userWithPassword(services, 'Admin');
    const editor = await userWithPassword(services, 'Editor');
    const target = await userWithPassword(services, 'Viewer');

    const byAdmin = await asUser(await logIn(call, admin.username as string), 'POST', `/api/admin/user-admin/${target.id}/change-password`, { password: 'Brand-New-Pass-43' });
    const byEditor = await asUser(await logIn(call, editor.username as string), 'POST', `/api/admin/user-admin/${target.id}/change-password`, { password: 'Brand-New-Pass-44' });

    expect(byAdmin.status).toBe(200);
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.message).toContain('ADMIN');
  });

  it('refuses a password that breaks the rules, or none, with 400 naming password; 404 for an unknown user, 400 for an id that is no number', async () => {
    const user = await userWithPassword(services, 'Viewer');

    const weak = await asAdmin('POST', `/api/admin/user-admin/${user.id}/change-password`, { password: 'all-lower-case-1' });
    const missing = await asAdmin('POST', `/api/admin/user-admin/${user.id}/change-password`, {});
    const unknown = await asAdmin('POST', '/api/admin/user-admin/999999/change-password', { password: 'Brand-New-Pass-45' });
    const notANumber = await asAdmin('POST', '/api/admin/user-admin/ada/change-password', { password: 'Brand-New-Pass-45' });

    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/^password: .*upper-case/);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('password');
    expect(unknown.status).toBe(404);
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.message).toContain('id');
    // The refused changes left the password as it was.
    expect(await logIn(call, user.username as string)).toMatch(/^unleash-session=/);
  });
});

describe('POST /api/admin/user-admin/validate-password', () => {
  it('answers 200 for a good password and 400 naming the rule broken, to any logged-in user as Unleash does', async () => {
    const viewer = await logIn(call, (await userWithPassword(services, 'Viewer')).username as string);

    const good = await asUser(viewer, 'POST', '/api/admin/user-admin/validate-password', { password: 'Another-Good-Pass-42' });
    const short = await asUser(viewer, 'POST', '/api/admin/user-admin/validate-password', { password: 'Sh0rt!' });
    const repeated = await asAdmin('POST', '/api/admin/user-admin/validate-password', { password: 'Aaaa-bbbb-1234' });
    const notAString = await asAdmin('POST', '/api/admin/user-admin/validate-password', { password: 12 });

    expect(good.status).toBe(200);
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('password: must be at least 10 characters long');
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toContain('three or more times');
    expect(notAString.status).toBe(400);
    expect(notAString.body.message).toContain('password');
  });
});

describe('GET /api/admin/user-admin/access', () => {
  it("lists every user and group for the access dialogs to an Admin session, without roles, logins or invite links", async () => {
    const viewer = await userWithPassword(services, 'Viewer');
    const member = await userWithPassword(services, 'Editor');
    const group = await services.groups.create({ name: unique('team'), rootRole: 2, userIds: [member.id, viewer.id] }, 'test');
    // A Viewer's and an Editor's refusal: test/integration/admin-only-reads.test.ts.
    const admin = await userWithPassword(services, 'Admin');

    const res = await asUser(await logIn(call, admin.username as string), 'GET', '/api/admin/user-admin/access');

    expect(res.status).toBe(200);
    expect(usersAndGroupsSchema.strict().safeParse({ ...res.body, users: [] }).success).toBe(true);
    expect(res.body.users).toContainEqual({ id: member.id, name: member.name, username: member.username, email: member.email, accountType: 'User' });
    expect(res.body.groups).toContainEqual({ id: group.group.id, name: group.group.name, userCount: 2, rootRole: 2 });
    for (const user of res.body.users) expect(user).not.toHaveProperty('rootRole');
    expect(JSON.stringify(res.body)).not.toMatch(/loginAttempts|inviteLink|seenAt/);
  });
});

describe('GET /api/admin/user-admin/admin-count', () => {
  it('counts users whose own root role is Admin, with a password and without one; no service accounts', async () => {
    const before = (await asAdmin('GET', '/api/admin/user-admin/admin-count')).body;
    await userWithPassword(services, 'Admin');
    await services.users.create({ username: unique('sso-admin'), rootRole: 'Admin' }, 'test');
    await userWithPassword(services, 'Editor');

    const res = await asAdmin('GET', '/api/admin/user-admin/admin-count');

    expect(res.status).toBe(200);
    expect(adminCountSchema.strict().safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual({ password: before.password + 1, noPassword: before.noPassword + 1, service: 0 });
    // The first admin has a password.
    expect(before.password).toBeGreaterThanOrEqual(1);
  });

  it('is refused to a Viewer session (403)', async () => {
    const viewer = await logIn(call, (await userWithPassword(services, 'Viewer')).username as string);

    const res = await asUser(viewer, 'GET', '/api/admin/user-admin/admin-count');

    expect(res.status).toBe(403);
    expect(res.body.name).toBe('NoAccessError');
    // No count leaks with the refusal.
    expect(res.body).not.toHaveProperty('password');
  });
});

describe('GET /api/admin/user-admin/inactive and POST …/inactive/delete', () => {
  it('lists users neither seen nor created in the last 180 days, and deletes only those of them named, never the caller', async () => {
    now = new Date();
    const idle = await userWithPassword(services, 'Viewer');
    const kept = await userWithPassword(services, 'Viewer');
    const returning = await userWithPassword(services, 'Editor');
    const caller = await userWithPassword(services, 'Admin');
    try {
      now = new Date(now.getTime() + 181 * DAY_MS);
      await logIn(call, returning.username as string);
      const session = await logIn(call, caller.username as string);
      const fresh = await userWithPassword(services, 'Viewer');

      const listed = await asAdmin('GET', '/api/admin/user-admin/inactive');

      expect(listed.status).toBe(200);
      expect(inactiveUsersSchema.strict().safeParse(listed.body).success).toBe(true);
      const ids = listed.body.inactiveUsers.map((user: { id: number }) => user.id);
      expect(ids).toEqual(expect.arrayContaining([idle.id, kept.id]));
      expect(ids).not.toContain(returning.id);
      expect(ids).not.toContain(fresh.id);
      expect(listed.body.inactiveUsers.find((user: { id: number }) => user.id === idle.id)).toEqual({
        id: idle.id, name: idle.name, email: idle.email, username: idle.username, seenAt: null, createdAt: idle.createdAt, patSeenAt: null,
      });

      const deleted = await asUser(session, 'POST', '/api/admin/user-admin/inactive/delete', { ids: [idle.id, returning.id, caller.id, 999999] });

      expect(deleted.status).toBe(200);
      expect(await services.users.find(idle.id)).toBeUndefined();
      expect(await services.users.find(kept.id)).toBeDefined();
      expect(await services.users.find(returning.id)).toBeDefined();
      expect(await services.users.find(caller.id)).toBeDefined();
    } finally {
      now = new Date();
    }
  });

  it('refuses ids that are not user ids with 400 naming ids', async () => {
    const res = await asAdmin('POST', '/api/admin/user-admin/inactive/delete', { ids: ['ada'] });
    const missing = await asAdmin('POST', '/api/admin/user-admin/inactive/delete', {});

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('ids');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('ids');
  });
});

describe('GET /api/admin/user/roles', () => {
  it("answers a logged-in user's root role under the default project, as Unleash does for a user without project roles", async () => {
    const editor = await userWithPassword(services, 'Editor');

    const res = await asUser(await logIn(call, editor.username as string), 'GET', '/api/admin/user/roles?projectId=default');

    expect(res.status).toBe(200);
    expect(roleListSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual({ version: 1, roles: [expect.objectContaining({ id: 2, name: 'Editor', type: 'root', project: 'default' })] });
  });

  it('answers no roles to an API token, and 400 naming projectId without one', async () => {
    const viewer = await logIn(call, (await userWithPassword(services, 'Viewer')).username as string);

    const byToken = await asAdmin('GET', '/api/admin/user/roles?projectId=default');
    const withoutProject = await asUser(viewer, 'GET', '/api/admin/user/roles');

    expect(byToken.body).toEqual({ version: 1, roles: [] });
    expect(withoutProject.status).toBe(400);
    expect(withoutProject.body.message).toContain('projectId');
  });
});

describe('GET /api/admin/permissions', () => {
  it("lists Unleash's permissions by level, the environment ones once for each environment", async () => {
    const viewer = await logIn(call, (await userWithPassword(services, 'Viewer')).username as string);
    const environments = (await services.environments.list()).map((environment) => environment.name);

    const res = await asUser(viewer, 'GET', '/api/admin/permissions');

    expect(res.status).toBe(200);
    expect(permissionCatalogueSchema.safeParse(res.body).success).toBe(true);
    const names = (entries: { name: string }[]) => entries.map((entry) => entry.name);
    expect(names(res.body.permissions.root)).toEqual(expect.arrayContaining(['ADMIN', 'CREATE_PROJECT', 'CREATE_SEGMENT']));
    expect(names(res.body.permissions.project)).toEqual(expect.arrayContaining(['CREATE_FEATURE', 'UPDATE_FEATURE', 'DELETE_PROJECT']));
    expect(res.body.permissions.environments.map((environment: { name: string }) => environment.name)).toEqual(environments);
    const development = res.body.permissions.environments.find((environment: { name: string }) => environment.name === 'development');
    expect(development.permissions).toContainEqual(expect.objectContaining({
      name: 'CREATE_FEATURE_STRATEGY', type: 'environment', environment: 'development', displayName: 'Create feature strategy',
    }));
    const ids = [...res.body.permissions.root, ...res.body.permissions.project, ...development.permissions].map((entry: { id: number }) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('GET /api/admin/user-admin/{id}/permissions', () => {
  type Checked = { name: string; hasPermission: boolean; environment?: string };
  const held = (entries: Checked[]) => Object.fromEntries(entries.map((entry) => [entry.name, entry.hasPermission]));

  it("checks every permission against the user's root role, lifted by a group's, and lists the named environment's", async () => {
    const viewer = await userWithPassword(services, 'Viewer');
    const editor = await userWithPassword(services, 'Editor');
    const lifted = await userWithPassword(services, 'Viewer');
    await services.groups.create({ name: unique('admins'), rootRole: 1, userIds: [lifted.id] }, 'test');

    const ofViewer = await asAdmin('GET', `/api/admin/user-admin/${viewer.id}/permissions?project=default&environment=development`);
    const ofEditor = await asAdmin('GET', `/api/admin/user-admin/${editor.id}/permissions?project=default&environment=development`);
    const ofLifted = await asAdmin('GET', `/api/admin/user-admin/${lifted.id}/permissions?environment=nowhere`);

    expect(ofViewer.status).toBe(200);
    expect(accessOverviewSchema.safeParse(ofViewer.body).success).toBe(true);
    expect(ofViewer.body).toMatchObject({ user: { id: viewer.id, username: viewer.username }, rootRole: { id: 3, name: 'Viewer' }, projectRoles: [] });
    expect(held(ofViewer.body.overview.root)).toMatchObject({ ADMIN: false, CREATE_PROJECT: false });
    expect(held(ofViewer.body.overview.project)).toMatchObject({ CREATE_FEATURE: false });
    expect(held(ofEditor.body.overview.root)).toMatchObject({ ADMIN: false, CREATE_PROJECT: true });
    expect(held(ofEditor.body.overview.project)).toMatchObject({ CREATE_FEATURE: true });
    expect(ofEditor.body.overview.environment).toContainEqual(expect.objectContaining({
      name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development', hasPermission: true,
    }));
    // Their own root role is answered; what they may do comes from the group's Admin role.
    expect(ofLifted.body.rootRole).toMatchObject({ id: 3, name: 'Viewer' });
    expect(ofLifted.body.overview.root.every((entry: Checked) => entry.hasPermission)).toBe(true);
    expect(ofLifted.body.overview.environment).toEqual([]);
  });

  it('answers 404 for an unknown user, 400 for an id that is no number, 403 to an Editor session', async () => {
    const editor = await logIn(call, (await userWithPassword(services, 'Editor')).username as string);

    const unknown = await asAdmin('GET', '/api/admin/user-admin/999999/permissions');
    const notANumber = await asAdmin('GET', '/api/admin/user-admin/ada/permissions');
    const byEditor = await asUser(editor, 'GET', '/api/admin/user-admin/1/permissions');

    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect(notANumber.status).toBe(400);
    expect(notANumber.body.name).toBe('ValidationError');
    expect(notANumber.body.message).toMatch(/^id: /);
    expect(byEditor.status).toBe(403);
    expect(byEditor.body.name).toBe('NoAccessError');
    expect(byEditor.body).not.toHaveProperty('overview');
  });
});
