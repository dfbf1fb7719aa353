import { describe, expect, it } from 'vitest';
import { Conflict, NotFound, ValidationFailed } from '../../../lib/errors.js';
import { GroupService } from '../../../lib/groups/service.js';
import type { User } from '../../../lib/users/model.js';
import { FakeGroupStore } from '../../support/fakes/group-store.js';

/** A clock the test moves: members who join later get a later `joinedAt`. */
function clock(start = '2026-03-04T05:06:07.000Z') {
  let now = new Date(start);
  return { now: () => now, advance: () => void (now = new Date(now.getTime() + 60_000)) };
}

const user = (id: number): User => ({
  id, name: `User ${id}`, email: `user${id}@example.com`, username: null, rootRole: 3, createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'admin-token', seenAt: null, loginAttempts: 0, signupToken: null, version: 1,
});

/** The service on a fake store, with users 1 to 5 existing. */
function groups() {
  const existing = new Set([1, 2, 3, 4, 5]);
  const time = clock();
  const store = new FakeGroupStore(existing);
  const service = new GroupService(store, { getMany: async (ids) => ids.filter((id) => existing.has(id)).map(user) }, time.now);
  return { store, service, existing, time };
}

const ACTOR = 'admin@example.com';

describe('GroupService on a fake store', () => {
  describe('create', () => {
    it('stores a trimmed name, the defaults of what the input leaves out, and the members with their users', async () => {
      const { service, store } = groups();

      const { group, users } = await service.create({ name: '  admins ', userIds: [2, 1] }, ACTOR);

      expect(group).toEqual({
        id: 1, name: 'admins', description: null, mappingsSSO: [], rootRole: null, createdAt: '2026-03-04T05:06:07.000Z', createdBy: ACTOR,
        members: [{ userId: 2, joinedAt: '2026-03-04T05:06:07.000Z', createdBy: ACTOR }, { userId: 1, joinedAt: '2026-03-04T05:06:07.000Z', createdBy: ACTOR }],
        version: 1,
      });
      expect([...users.keys()].sort()).toEqual([1, 2]);
      expect((await store.get(1))?.name).toBe('admins');
    });

    it('refuses a blank name or an unknown root role with ValidationFailed, before drawing an id', async () => {
      const { service, store } = groups();

      await expect(service.create({ name: '  ' }, ACTOR)).rejects.toThrow(new ValidationFailed('name: Group name cannot be empty'));
      await expect(service.create({ name: 'admins', rootRole: 7 }, ACTOR)).rejects.toThrow(ValidationFailed);

      expect(await store.nextId()).toBe(1);
    });

    it('refuses a member who is not a user with ValidationFailed naming the id, and stores no group', async () => {
      const { service } = groups();

      await expect(service.create({ name: 'admins', userIds: [1, 404] }, ACTOR)).rejects.toThrow(
        new ValidationFailed('users: Incorrect user id 404 in the users of the group; no such user'),
      );

      expect(await service.list()).toEqual([]);
    });

    it('refuses a taken name with Conflict', async () => {
      const { service } = groups();
      await service.create({ name: 'admins' }, ACTOR);

      await expect(service.create({ name: 'admins' }, ACTOR)).rejects.toThrow(new Conflict('Group name already exists: admins'));

      expect((await service.list()).map((view) => view.group.name)).toEqual(['admins']);
    });
  });

  describe('update', () => {
    it('replaces details and membership: staying members keep when they joined, new ones join now', async () => {
      const { service, time } = groups();
      await service.create({ name: 'admins', userIds: [1, 2] }, 'first-token');
      time.advance();

      const { group } = await service.update(1, { name: 'owners', rootRole: 1, userIds: [2, 3] }, ACTOR);

      expect(group).toMatchObject({ name: 'owners', rootRole: 1, version: 2 });
      expect(group.members).toEqual([
        { userId: 2, joinedAt: '2026-03-04T05:06:07.000Z', createdBy: 'first-token' },
        { userId: 3, joinedAt: '2026-03-04T05:07:07.000Z', createdBy: ACTOR },
      ]);
      expect((await service.get(1)).group).toEqual(group);
    });

    it('answers NotFound for a missing group, and ValidationFailed for a new member who is not a user', async () => {
      const { service } = groups();
      await service.create({ name: 'admins' }, ACTOR);

      await expect(service.update(9, { name: 'owners' }, ACTOR)).rejects.toThrow(new NotFound('No group found with id 9'));
      await expect(service.update(1, { name: 'admins', userIds: [404] }, ACTOR)).rejects.toThrow(ValidationFailed);

      expect((await service.get(1)).group.members).toEqual([]);
    });
  });

  describe('reads', () => {
    it('leaves out of the users a member whose user is gone, and names the groups of a user', async () => {
      const { service, existing } = groups();
      await service.create({ name: 'admins', userIds: [1, 2] }, ACTOR);
      await service.create({ name: 'editors', userIds: [2] }, ACTOR);
      existing.delete(1);

      const { group, users } = await service.get(1);

      expect(group.members.map((member) => member.userId)).toEqual([1, 2]);
      expect([...users.keys()]).toEqual([2]);
      expect(await service.groupIdsOf(2)).toEqual([1, 2]);
      expect(await service.groupIdsOf(1)).toEqual([1]);
    });
  });

  describe('single sign-on syncing', () => {
    it('joins the groups whose mappings name one of the user\'s groups, leaves the mapped ones that do not, and leaves hand-managed groups alone', async () => {
      const { service } = groups();
      await service.create({ name: 'admins', mappingsSSO: ['idp-admins'] }, ACTOR);
      await service.create({ name: 'editors', mappingsSSO: ['idp-editors'], userIds: [3] }, ACTOR);
      await service.create({ name: 'by hand', userIds: [3] }, ACTOR);

      await service.syncSsoMemberships(3, ['idp-admins', 'unmapped'], 'sso-login');

      const members = Object.fromEntries((await service.list()).map(({ group }) => [group.name, group.members.map((member) => member.userId)]));
      expect(members).toEqual({ admins: [3], editors: [], 'by hand': [3] });
    });

    it('answers unknown-user for a user deleted meanwhile, and no group takes them', async () => {
      const { service, existing } = groups();
      await service.create({ name: 'admins', mappingsSSO: ['idp-admins'] }, ACTOR);
      existing.delete(3);

      expect(await service.syncSsoMemberships(3, ['idp-admins'], 'sso-login')).toBe('unknown-user');

      expect((await service.get(1)).group.members).toEqual([]);
    });
  });

  describe('delete', () => {
    it('deletes a group, freeing its name, and answers NotFound for a missing one', async () => {
      const { service } = groups();
      await service.create({ name: 'admins' }, ACTOR);

      await service.delete(1, ACTOR);

      await expect(service.get(1)).rejects.toThrow(NotFound);
      await expect(service.delete(1, ACTOR)).rejects.toThrow(NotFound);
      expect((await service.create({ name: 'admins' }, ACTOR)).group.id).toBe(2);
    });
  });
});
