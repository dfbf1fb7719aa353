import { beforeAll, describe, expect, it } from 'vitest';
import { groupSchema } from '../../lib/groups/schemas.js';
import { createUser, namedAdminToken } from '../support/access.js';
import { apiClient } from '../support/api.js';
import { testServices, unique } from '../support/services.js';

const services = testServices();
const call = apiClient(services);
const tokenName = unique('group-admin');
let token: string;

beforeAll(async () => {
  token = await namedAdminToken(services, tokenName);
});

const members = (...users: Array<{ id: number }>) => users.map((user) => ({ user: { id: user.id } }));
const create = (body: unknown) => call({ method: 'POST', path: '/api/admin/groups', token, body });
const update = (id: number | string, body: unknown) => call({ method: 'PUT', path: `/api/admin/groups/${id}`, token, body });
const get = (id: number | string) => call({ method: 'GET', path: `/api/admin/groups/${id}`, token });
const memberIds = (group: { users: Array<{ user: { id: number } }> }) => group.users.map((item) => item.user.id).sort((a, b) => a - b);

describe('E4 POST /api/admin/groups', () => {
  it('answers 201 with the response form: id, members with joinedAt and the full user, createdBy', async () => {
    const [ada, bob] = [await createUser(call, token), await createUser(call, token)];
    const name = unique('team');

    const res = await create({ name, description: 'Team', mappingsSSO: ['sso-team'], rootRole: 2, users: members(ada, bob) });

    expect(res.status).toBe(201);
    expect(groupSchema.safeParse(res.body).success).toBe(true);
    expect(res.body).toMatchObject({
      name, description: 'Team', mappingsSSO: ['sso-team'], rootRole: 2, createdBy: tokenName, projects: [], userCount: 2,
    });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.users).toEqual([
      { joinedAt: res.body.createdAt, createdBy: tokenName, user: ada },
      { joinedAt: res.body.createdAt, createdBy: tokenName, user: bob },
    ]);
  });

  it('creates a group without members', async () => {
    const res = await create({ name: unique('empty') });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ description: null, mappingsSSO: [], rootRole: null, userCount: 0, users: [] });
  });

  it.each([
    [{ description: 'no name' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x', rootRole: 9 }, 'rootRole'],
    [{ name: 'x', users: [{ user: { id: 'one' } }] }, 'users'],
  ])('refuses %j with 400 naming %s', async (body, property) => {
    const res = await create(body);

    expect(res.status).toBe(400);
    expect(res.body.name).toBe('ValidationError');
    expect(res.body.message).toContain(property);
  });

  it('refuses a member who is not a user with 400 naming the id, and creates nothing', async () => {
    const ada = await createUser(call, token);
    const name = unique('ghosts');

    const res = await create({ name, users: [...members(ada), { user: { id: 1_999_999_999 } }] });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('1999999999');
    expect((await create({ name })).status).toBe(201);
  });

  it('refuses a taken name with 409 NameExistsError', async () => {
    const name = unique('dup');
    await create({ name });

    const res = await create({ name });

    expect(res.status).toBe(409);
    expect(res.body.name).toBe('NameExistsError');
  });

  it('creates exactly one group when twenty requests race for one name', async () => {
    const name = unique('race');

    const answers = await Promise.all(Array.from({ length: 20 }, () => create({ name })));

    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const listed = await call({ method: 'GET', path: '/api/admin/groups', token });
    expect(listed.body.groups.filter((group: { name: string }) => group.name === name)).toHaveLength(1);
  });
});

describe('E1 PUT /api/admin/groups/{groupId}', () => {
  it('replaces details and membership; members who stay keep joinedAt, new ones join now', async () => {
    const [ada, bob, cy] = [await createUser(call, token), await createUser(call, token), await createUser(call, token)];
    const { body: before } = await create({ name: unique('squad'), description: 'Old', rootRole: 3, users: members(ada, bob) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const otherName = unique('other-admin');
    const other = await namedAdminToken(services, otherName);

    const res = await call({
      method: 'PUT', path: `/api/admin/groups/${before.id}`, token: other, body: { name: before.name, users: members(bob, cy) },
    });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: before.id, name: before.name, description: null, rootRole: null, createdBy: tokenName });
    expect(res.body.createdAt).toBe(before.createdAt);
    const [stayed, joined] = res.body.users;
    expect(stayed).toEqual({ joinedAt: before.users[1].joinedAt, createdBy: tokenName, user: bob });
    expect(joined.user).toEqual(cy);
    expect(joined.createdBy).toBe(otherName);
    expect(joined.joinedAt > stayed.joinedAt).toBe(true);
    expect(res.body.userCount).toBe(2);
    expect((await get(before.id)).body).toEqual(res.body);
  });

  it('moves the name: the old name is free at once, the new one is taken', async () => {
    const [oldName, newName] = [unique('old'), unique('new')];
    const { body: group } = await create({ name: oldName });

    const res = await update(group.id, { name: newName });

    expect(res.status).toBe(200);
    expect((await get(group.id)).body).toMatchObject({ id: group.id, name: newName });
    const reused = await create({ name: oldName });
    expect(reused.status).toBe(201);
    expect(reused.body.id).not.toBe(group.id);
    const taken = await create({ name: newName });
    expect(taken.status).toBe(409);
    expect(taken.body.name).toBe('NameExistsError');
    expect(taken.body.message).toContain(newName);
  });

  it('refuses renaming to a taken name with 409 and changes nothing', async () => {
    const [{ body: first }, { body: second }] = [await create({ name: unique('a') }), await create({ name: unique('b') })];

    const res = await update(second.id, { name: first.name, description: 'Should not stick' });

    expect(res.status).toBe(409);
    expect((await get(second.id)).body).toEqual(second);
  });

  it('writes nothing when one new member is not a user (all or nothing)', async () => {
    const [ada, bob] = [await createUser(call, token), await createUser(call, token)];
    const { body: group } = await create({ name: unique('atomic'), users: members(ada) });

    const res = await update(group.id, { name: group.name, description: 'changed', users: [...members(bob), { user: { id: 1_999_999_998 } }] });

    expect(res.status).toBe(400);
    expect(res.body.message).toContain('1999999998');
    expect((await get(group.id)).body).toEqual(group);
  });

  it('answers 404 for an unknown group and 400 for an id that is not an integer', async () => {
    const [unknownName, badIdName] = [unique('x'), unique('x')];
    const unknown = await update(2_000_000_000, { name: unknownName });
    const badId = await update('abc', { name: badIdName });

    expect(unknown.status).toBe(404);
    expect(unknown.body.name).toBe('NotFoundError');
    expect(unknown.body.message).toContain('2000000000');
    expect(badId.status).toBe(400);
    expect(badId.body.name).toBe('ValidationError');
    expect(badId.body.message).toMatch(/^groupId:/);
    // Neither update made a group.
    expect((await get(2_000_000_000)).status).toBe(404);
    const listed = (await call({ method: 'GET', path: '/api/admin/groups', token })).body.groups.map((g: { name: string }) => g.name);
    expect(listed).not.toContain(unknownName);
    expect(listed).not.toContain(badIdName);
  });
});

describe('reading and deleting groups', () => {
  it('lists groups with their members and gets one by id', async () => {
    const ada = await createUser(call, token);
    const { body: group } = await create({ name: unique('listed'), users: members(ada) });

    const list = await call({ method: 'GET', path: '/api/admin/groups', token });
    const one = await get(group.id);

    expect(list.status).toBe(200);
    expect(list.body.groups).toContainEqual(group);
    expect(one.body).toEqual(group);
    expect((await get(2_000_000_000)).status).toBe(404);
  });

  it('deletes a group, after which it is gone and its name is free', async () => {
    const { body: group } = await create({ name: unique('doomed') });

    const res = await call({ method: 'DELETE', path: `/api/admin/groups/${group.id}`, token });

    expect(res.status).toBe(200);
    const gone = await get(group.id);
    expect(gone.status).toBe(404);
    expect(gone.body.name).toBe('NotFoundError');
    const list = await call({ method: 'GET', path: '/api/admin/groups', token });
    expect(list.body.groups.map((g: { id: number }) => g.id)).not.toContain(group.id);
    const reused = await create({ name: group.name });
    expect(reused.status).toBe(201);
    expect(reused.body).toMatchObject({ name: group.name });
    expect(reused.body.id).not.toBe(group.id);
    const again = await call({ method: 'DELETE', path: `/api/admin/groups/${group.id}`, token });
    expect(again.status).toBe(404);
    expect(again.body.name).toBe('NotFoundError');
    // The second delete did not touch the new group of the same name.
    expect((await get(reused.body.id)).body).toEqual(reused.body);
  });

  it('drops a deleted user from the groups it was in', async () => {
    const [ada, bob] = [await createUser(call, token), await createUser(call, token)];
    const { body: group } = await create({ name: unique('leavers'), users: members(ada, bob) });

    await call({ method: 'DELETE', path: `/api/admin/user-admin/${ada.id}`, token });
    const res = await get(group.id);

    expect(res.body.userCount).toBe(1);
    expect(memberIds(res.body)).toEqual([bob.id]);
  });
});
