import { describe, expect, it } from 'vitest';
import type { Group, GroupMember } from '../../../lib/groups/model.js';
import { SYNC_GROUPS_PER_WRITE, type GroupStore } from '../../../lib/groups/store.js';
import type { MakeStore } from './named-items.js';

/** The store under test and what it checks outside its port: users that exist, made by `addUser`. */
export interface GroupStoreUnderTest {
  store: GroupStore;
  addUser(userId: number): Promise<void>;
}

const member = (userId: number, joinedAt: string): GroupMember => ({ userId, joinedAt, createdBy: 'admin-token' });

const group = (id: number, name: string, members: GroupMember[] = []): Group => ({
  id,
  name,
  description: null,
  mappingsSSO: ['okta-admins'],
  rootRole: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  createdBy: 'admin-token',
  members,
  version: 1,
});

const ACTOR = 'admin@example.com';

/** What every GroupStore answers: the fake and the DynamoDB adapter run these cases. */
export function groupStoreContract(makeStore: MakeStore<GroupStoreUnderTest>): void {
  describe('the GroupStore contract', () => {
    it('starts empty', async () => {
      const { store } = await makeStore();

      expect(await store.list()).toEqual([]);
      expect(await store.get(1)).toBeUndefined();
    });

    it('hands out increasing ids, never one twice', async () => {
      const { store } = await makeStore();

      const ids = [await store.nextId(), await store.nextId(), await store.nextId()];

      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
      expect(ids[1]).toBeGreaterThan(ids[0]!);
      expect(ids[2]).toBeGreaterThan(ids[1]!);
    });

    it('inserts a group with members who are users and reads it back as written', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      await addUser(11);
      const written = { ...group(1, 'admins', [member(10, '2026-01-02T03:04:05.000Z'), member(11, '2026-01-03T00:00:00.000Z')]), description: 'Everyone in charge' };

      expect(await store.insert(written, ACTOR)).toEqual({ kind: 'done' });

      expect(await store.get(1)).toEqual(written);
      expect(await store.list()).toEqual([written]);
    });

    it('reads members in the order they joined, ties by user id, whatever order they were written in', async () => {
      const { store, addUser } = await makeStore();
      for (const userId of [3, 5, 9]) await addUser(userId);

      await store.insert(group(1, 'admins', [member(9, '2026-02-01T00:00:00.000Z'), member(5, '2026-01-01T00:00:00.000Z'), member(3, '2026-02-01T00:00:00.000Z')]), ACTOR);

      expect((await store.get(1))?.members.map((read) => read.userId)).toEqual([5, 3, 9]);
    });

    it('answers name-taken to an insert of a taken name, and writes nothing', async () => {
      const { store } = await makeStore();
      await store.insert(group(1, 'admins'), ACTOR);

      expect(await store.insert(group(2, 'admins'), ACTOR)).toEqual({ kind: 'name-taken' });

      expect(await store.get(2)).toBeUndefined();
      expect(await store.list()).toEqual([group(1, 'admins')]);
    });

    it('answers unknown-user, naming the first member who is not a user, and writes nothing', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);

      const outcome = await store.insert(group(1, 'admins', [member(10, '2026-01-01T00:00:00.000Z'), member(404, '2026-01-01T00:00:00.000Z'), member(405, '2026-01-01T00:00:00.000Z')]), ACTOR);

      expect(outcome).toEqual({ kind: 'unknown-user', userId: 404 });
      expect(await store.get(1)).toBeUndefined();
      expect(await store.insert(group(2, 'admins'), ACTOR)).toEqual({ kind: 'done' });
    });

    it('answers changed to an insert under an id a group has', async () => {
      const { store } = await makeStore();
      await store.insert(group(1, 'admins'), ACTOR);

      expect(await store.insert(group(1, 'editors'), ACTOR)).toEqual({ kind: 'changed' });

      expect((await store.get(1))?.name).toBe('admins');
    });

    it('answers done to an insert sent again exactly as written (a resend after an attempt that committed unseen), and writes it once', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const written = group(1, 'admins', [member(10, '2026-01-02T03:04:05.000Z')]);
      await store.insert(written, ACTOR);

      expect(await store.insert(written, ACTOR)).toEqual({ kind: 'done' });
      expect(await store.insert({ ...written, description: 'another' }, ACTOR)).toEqual({ kind: 'changed' });

      expect(await store.list()).toEqual([written]);
    });

    it('lists groups by id, numerically', async () => {
      const { store } = await makeStore();
      for (const id of [10, 2, 1_000_000, 9]) await store.insert(group(id, `group ${id}`), ACTOR);

      expect((await store.list()).map((listed) => listed.id)).toEqual([2, 9, 10, 1_000_000]);
    });

    it('replaces a group as read, moving its version on by one', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const before = group(1, 'admins');
      await store.insert(before, ACTOR);
      const after: Group = { ...before, description: 'Everyone in charge', rootRole: 2, mappingsSSO: [], members: [member(10, '2026-02-01T00:00:00.000Z')] };

      expect(await store.replace(before, after, [10], ACTOR)).toEqual({ kind: 'done' });

      expect(await store.get(1)).toEqual({ ...after, version: 2 });
    });

    it('answers changed to a replace of a group changed since it was read, and keeps the change', async () => {
      const { store } = await makeStore();
      const read = group(1, 'admins');
      await store.insert(read, ACTOR);
      await store.replace(read, { ...read, description: 'first' }, [], ACTOR);

      expect(await store.replace(read, { ...read, description: 'second' }, [], ACTOR)).toEqual({ kind: 'changed' });

      expect(await store.get(1)).toMatchObject({ description: 'first', version: 2 });
    });

    it('answers changed to a replace of a group that is gone, and creates none', async () => {
      const { store } = await makeStore();
      const gone = group(1, 'admins');

      expect(await store.replace(gone, { ...gone, description: 'changed' }, [], ACTOR)).toEqual({ kind: 'changed' });

      expect(await store.list()).toEqual([]);
    });

    it('moves the name on a rename: the old one is free for another group', async () => {
      const { store } = await makeStore();
      const before = group(1, 'admins');
      await store.insert(before, ACTOR);

      expect(await store.replace(before, { ...before, name: 'owners' }, [], ACTOR)).toEqual({ kind: 'done' });

      expect((await store.get(1))?.name).toBe('owners');
      expect(await store.insert(group(2, 'owners'), ACTOR)).toEqual({ kind: 'name-taken' });
      expect(await store.insert(group(3, 'admins'), ACTOR)).toEqual({ kind: 'done' });
    });

    it('answers name-taken to a rename to another group\'s name, and changes nothing', async () => {
      const { store } = await makeStore();
      const before = group(1, 'admins');
      await store.insert(before, ACTOR);
      await store.insert(group(2, 'owners'), ACTOR);

      expect(await store.replace(before, { ...before, name: 'owners', description: 'changed' }, [], ACTOR)).toEqual({ kind: 'name-taken' });

      expect(await store.get(1)).toEqual(before);
    });

    it('answers unknown-user when an added member is not a user, and changes nothing', async () => {
      const { store } = await makeStore();
      const before = group(1, 'admins');
      await store.insert(before, ACTOR);

      const outcome = await store.replace(before, { ...before, members: [member(404, '2026-02-01T00:00:00.000Z')] }, [404], ACTOR);

      expect(outcome).toEqual({ kind: 'unknown-user', userId: 404 });
      expect(await store.get(1)).toEqual(before);
    });

    it('checks only the users in addedUserIds: members left out of it are written unchecked', async () => {
      const { store } = await makeStore();
      const before = group(1, 'admins');
      await store.insert(before, ACTOR);
      const after = { ...before, members: [member(404, '2026-02-01T00:00:00.000Z')] };

      expect(await store.replace(before, after, [], ACTOR)).toEqual({ kind: 'done' });

      expect(await store.get(1)).toEqual({ ...after, version: 2 });
    });

    it('deletes a group as read and frees its name', async () => {
      const { store } = await makeStore();
      await store.insert(group(1, 'admins'), ACTOR);

      expect(await store.delete(group(1, 'admins'), ACTOR)).toBe('done');

      expect(await store.get(1)).toBeUndefined();
      expect(await store.insert(group(2, 'admins'), ACTOR)).toEqual({ kind: 'done' });
    });

    it('answers changed to a delete of a group changed since it was read or gone, and keeps the change', async () => {
      const { store } = await makeStore();
      const read = group(1, 'admins');
      await store.insert(read, ACTOR);
      await store.replace(read, { ...read, description: 'newer' }, [], ACTOR);

      expect(await store.delete(read, ACTOR)).toBe('changed');
      expect(await store.delete(group(2, 'nobody'), ACTOR)).toBe('changed');

      expect(await store.get(1)).toMatchObject({ description: 'newer', version: 2 });
    });

    it('syncs one person into and out of groups as read, whatever else changed in them, moving each version', async () => {
      const { store, addUser } = await makeStore();
      for (const userId of [10, 11]) await addUser(userId);
      const joined = group(1, 'admins');
      const left = group(2, 'editors', [member(10, '2026-01-01T00:00:00.000Z'), member(11, '2026-01-01T00:00:00.000Z')]);
      await store.insert(joined, ACTOR);
      await store.insert(left, ACTOR);
      // Another person joined and the description changed after the sync's read: neither is the sync's business.
      await store.replace(joined, { ...joined, description: 'newer', members: [member(11, '2026-01-02T00:00:00.000Z')] }, [11], ACTOR);

      expect(await store.syncMember(10, [joined], [left], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('done');

      expect(await store.get(1)).toMatchObject({
        description: 'newer', version: 3,
        members: [member(11, '2026-01-02T00:00:00.000Z'), { userId: 10, joinedAt: '2026-03-01T00:00:00.000Z', createdBy: 'oidc-login' }],
      });
      expect(await store.get(2)).toMatchObject({ version: 2, members: [member(11, '2026-01-01T00:00:00.000Z')] });
    });

    it('answers changed to a sync of a group whose mappings changed, that is gone, or that the person already joined or left, and writes none of it', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const read = group(1, 'admins');
      await store.insert(read, ACTOR);
      await store.insert(group(2, 'viewers'), ACTOR);
      await store.replace(read, { ...read, mappingsSSO: ['okta-owners'] }, [], ACTOR);

      expect(await store.syncMember(10, [group(2, 'viewers'), read], [], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('changed');
      expect(await store.syncMember(10, [group(3, 'nobody')], [], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('changed');
      expect(await store.syncMember(10, [], [group(2, 'viewers')], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('changed');
      expect(await store.syncMember(10, [group(2, 'viewers')], [], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('done');
      expect(await store.syncMember(10, [group(2, 'viewers')], [], '2026-03-02T00:00:00.000Z', 'oidc-login')).toBe('changed');

      expect((await store.get(1))?.members).toEqual([]);
      expect((await store.get(2))?.members).toEqual([{ userId: 10, joinedAt: '2026-03-01T00:00:00.000Z', createdBy: 'oidc-login' }]);
    });

    it('answers unknown-user to a sync that joins someone who is not a user, and writes nothing', async () => {
      const { store } = await makeStore();
      await store.insert(group(1, 'admins'), ACTOR);

      expect(await store.syncMember(404, [group(1, 'admins')], [], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('unknown-user');

      expect(await store.get(1)).toEqual(group(1, 'admins'));
    });
    // Past SYNC_GROUPS_PER_WRITE groups a sync is several writes, each committed before the next.
    const manyGroups = async (store: GroupStore, firstId: number, count: number, members: GroupMember[] = []): Promise<Group[]> => {
      const made = Array.from({ length: count }, (_, index) => group(firstId + index, `group ${firstId + index}`, members));
      for (const each of made) await store.insert(each, ACTOR);
      return made;
    };
    const membersOf = async (store: GroupStore, groups: readonly Group[]) =>
      Promise.all(groups.map(async (read) => (await store.get(read.id))?.members.map((each) => each.userId)));

    it('syncs more groups than one write holds: every leave and every join', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const toJoin = await manyGroups(store, 1, SYNC_GROUPS_PER_WRITE + 5);
      const toLeave = await manyGroups(store, 1001, 5, [member(10, '2026-01-01T00:00:00.000Z')]);

      expect(await store.syncMember(10, toJoin, toLeave, '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('done');

      expect(new Set((await membersOf(store, toJoin)).map(String))).toEqual(new Set(['10']));
      expect(new Set((await membersOf(store, toLeave)).map(String))).toEqual(new Set(['']));
    });

    it('leaves before it joins past one write: a failed write never leaves the person in a new group and one they were to leave', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const toJoin = await manyGroups(store, 1, SYNC_GROUPS_PER_WRITE);
      const [toLeave] = await manyGroups(store, 1001, 1, [member(10, '2026-01-01T00:00:00.000Z')]);
      // Its mappings change after the sync's read: the write holding its leave fails.
      await store.replace(toLeave!, { ...toLeave!, mappingsSSO: ['okta-owners'] }, [], ACTOR);

      expect(await store.syncMember(10, toJoin, [toLeave!], '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('changed');

      expect((await store.get(toLeave!.id))?.members.map((each) => each.userId)).toEqual([10]);
      expect((await membersOf(store, toJoin)).flat()).toEqual([]);
    });

    it('keeps the writes done before a later one of the same sync fails: the leaves, never a join', async () => {
      const { store, addUser } = await makeStore();
      await addUser(10);
      const toLeave = await manyGroups(store, 1001, SYNC_GROUPS_PER_WRITE, [member(10, '2026-01-01T00:00:00.000Z')]);
      const [toJoin] = await manyGroups(store, 1, 1);
      await store.replace(toJoin!, { ...toJoin!, mappingsSSO: ['okta-owners'] }, [], ACTOR);

      expect(await store.syncMember(10, [toJoin!], toLeave, '2026-03-01T00:00:00.000Z', 'oidc-login')).toBe('changed');

      expect((await membersOf(store, toLeave)).flat()).toEqual([]);
      expect((await store.get(toJoin!.id))?.members).toEqual([]);
    });
  });
}
