import { describe, expect, it } from 'vitest';
import type { Group } from '../../lib/groups/model.js';
import { ROOT_ROLE, type RootRoleId } from '../../lib/roles/model.js';
import { GroupRolesByRevision } from '../../lib/sessions/group-roles.js';
import { GROUPS_REVISION_SETTLE_MS } from '../../lib/store/groups-revision.js';

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
});
