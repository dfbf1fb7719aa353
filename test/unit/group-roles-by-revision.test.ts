import { describe, expect, it } from 'vitest';
import type { Group } from '../../lib/groups/model.js';
import { ROOT_ROLE, type RootRoleId } from '../../lib/roles/model.js';
import { GroupRolesByRevision } from '../../lib/sessions/group-roles.js';
import { GROUPS_REVISION_MOVE_SETTLE_MS, GROUPS_REVISION_SETTLE_MS } from '../../lib/store/groups-revision.js';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');
const settled = (value: number) => ({ value, since: NOW - GROUPS_REVISION_SETTLE_MS });

function group(id: number, rootRole: RootRoleId | null, userIds: number[]): Group {
  return {
    id, name: `g${id}`, description: null, mappingsSSO: [], rootRole, createdAt: '', createdBy: 'test', version: 1,
    members: userIds.map((userId) => ({ userId, joinedAt: '', createdBy: 'test' })),
  };
}

/** Groups whose reads are counted, and answered only when the test lets them. */
function groupsSource(initial: Group[]) {
  let groups = initial;
  const pending: Array<() => void> = [];
  let held = false;
  const source = {
    reads: 0,
    set: (next: Group[]) => { groups = next; },
    /** Reads started from now on wait for `release`; `stopHolding` lets later reads through at once. */
    hold: () => { held = true; },
    stopHolding: () => { held = false; },
    release: () => { pending.splice(0).forEach((answer) => answer()); },
    list: async () => {
      source.reads += 1;
      const answer = groups;
      if (held) await new Promise<void>((resolve) => pending.push(resolve));
      return answer;
    },
  };
  return source;
}

describe('the root roles groups give, kept per groups\' revision', () => {
  it('reads the groups once per revision, and again when it moved', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Admin, [7]), group(2, ROOT_ROLE.Editor, [7, 8]), group(3, null, [9])]);
    const roles = new GroupRolesByRevision(source, () => new Date(NOW));

    expect(await roles.rolesOf(7, settled(4))).toEqual([ROOT_ROLE.Admin, ROOT_ROLE.Editor]);
    expect(await roles.rolesOf(8, settled(4))).toEqual([ROOT_ROLE.Editor]);
    expect(await roles.rolesOf(9, settled(4))).toEqual([]);
    expect(source.reads).toBe(1);

    source.set([group(2, ROOT_ROLE.Editor, [8])]);
    expect(await roles.rolesOf(7, settled(5))).toEqual([]);
    expect(source.reads).toBe(2);
  });

  it('reads the groups on every call without a revision, or with one that has not settled', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Viewer, [7])]);
    const roles = new GroupRolesByRevision(source, () => new Date(NOW));

    await roles.rolesOf(7, undefined);
    await roles.rolesOf(7, undefined);
    await roles.rolesOf(7, { value: 3, since: NOW - GROUPS_REVISION_SETTLE_MS + 1 });
    await roles.rolesOf(7, { value: 3, since: NOW - GROUPS_REVISION_SETTLE_MS + 1 });

    expect(source.reads).toBe(4);
  });

  it('shares one read among concurrent calls at one revision, and keeps a newer revision over an older read that ends later', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Editor, [7])]);
    const roles = new GroupRolesByRevision(source, () => new Date(NOW));

    source.hold();
    const atOld = [roles.rolesOf(7, settled(1)), roles.rolesOf(7, settled(1))];
    source.stopHolding();
    source.set([group(1, ROOT_ROLE.Admin, [7])]);
    expect(await roles.rolesOf(7, settled(2))).toEqual([ROOT_ROLE.Admin]);
    source.release();
    expect(await Promise.all(atOld)).toEqual([[ROOT_ROLE.Editor], [ROOT_ROLE.Editor]]);

    // The read at revision 1 ended last; revision 2's roles are the ones kept.
    expect(await roles.rolesOf(7, settled(2))).toEqual([ROOT_ROLE.Admin]);
    expect(source.reads).toBe(2);
  });

  it('uses a read of the groups that started within the settling time after the move for its request only, and keeps one started after it', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Editor, [7])]);
    let clock = NOW;
    const roles = new GroupRolesByRevision(source, () => new Date(clock));
    const moved = { ...settled(6), movedAt: NOW };

    // The move's transaction may still be committing: a Query may see the revision moved and a group from before it.
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Editor]);
    source.set([group(1, ROOT_ROLE.Admin, [7])]);
    clock = NOW + GROUPS_REVISION_MOVE_SETTLE_MS - 1;
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Admin]);
    expect(source.reads).toBe(2);

    clock = NOW + GROUPS_REVISION_MOVE_SETTLE_MS;
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Admin]);
    source.set([]);
    clock += 60_000;
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Admin]);
    expect(source.reads).toBe(3);
  });

  it('does not share a read started within the settling time with a later call at the same revision', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Editor, [7])]);
    let clock = NOW;
    const roles = new GroupRolesByRevision(source, () => new Date(clock));
    const moved = { ...settled(6), movedAt: NOW };

    source.hold();
    const early = roles.rolesOf(7, moved);
    source.stopHolding();
    source.set([group(1, ROOT_ROLE.Admin, [7])]);
    clock = NOW + GROUPS_REVISION_MOVE_SETTLE_MS;
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Admin]);
    source.release();
    expect(await early).toEqual([ROOT_ROLE.Editor]);

    // The early read, which ended last, was not kept over the later one.
    expect(await roles.rolesOf(7, moved)).toEqual([ROOT_ROLE.Admin]);
    expect(source.reads).toBe(2);
  });

  it('drops what it kept when the revision goes back (the item made again, or the table restored), and keeps the new history', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Admin, [7])]);
    const roles = new GroupRolesByRevision(source, () => new Date(NOW));
    const before = { ...settled(10), movedAt: NOW - 60_000 };
    expect(await roles.rolesOf(7, before)).toEqual([ROOT_ROLE.Admin]);

    // Made again at 0 by a start, then moved by group changes back up to 10, with other groups.
    source.set([group(2, ROOT_ROLE.Viewer, [7])]);
    const remade = { value: 0, since: NOW - GROUPS_REVISION_SETTLE_MS - 1 };
    expect(await roles.rolesOf(7, remade)).toEqual([ROOT_ROLE.Viewer]);
    expect(await roles.rolesOf(7, remade)).toEqual([ROOT_ROLE.Viewer]);
    expect(source.reads).toBe(2);

    source.set([group(2, ROOT_ROLE.Editor, [7])]);
    const climbedBack = { value: 10, since: remade.since, movedAt: NOW - 30_000 };
    expect(await roles.rolesOf(7, climbedBack)).toEqual([ROOT_ROLE.Editor]);
    expect(source.reads).toBe(3);

    // A restored table: the same value as kept, moved at another time.
    source.set([group(3, ROOT_ROLE.Admin, [7])]);
    expect(await roles.rolesOf(7, { ...climbedBack, movedAt: NOW - 40_000 })).toEqual([ROOT_ROLE.Admin]);
    expect(source.reads).toBe(4);
  });

  it('keeps no read that was running when the revision went back', async () => {
    const source = groupsSource([group(1, ROOT_ROLE.Admin, [7])]);
    const roles = new GroupRolesByRevision(source, () => new Date(NOW));
    expect(await roles.rolesOf(7, settled(3))).toEqual([ROOT_ROLE.Admin]);

    source.hold();
    const running = roles.rolesOf(7, settled(4));
    source.stopHolding();
    source.set([group(1, ROOT_ROLE.Viewer, [7])]);
    expect(await roles.rolesOf(7, settled(1))).toEqual([ROOT_ROLE.Viewer]);
    source.release();
    expect(await running).toEqual([ROOT_ROLE.Admin]);

    // Revision 4 of the history before is not kept: a request at 4 of the new one reads.
    expect(await roles.rolesOf(7, settled(4))).toEqual([ROOT_ROLE.Viewer]);
    expect(source.reads).toBe(4);
  });
});
