import type { Group } from '../groups/model.js';
import type { RootRoleId } from '../roles/model.js';
import { isKeepableRead, isTrusted, type GroupsRevision } from '../store/groups-revision.js';

/** The root roles a user holds through their groups. */
export function groupRootRolesOf(groups: readonly Group[], userId: number): RootRoleId[] {
  return groups.flatMap((group) => (group.rootRole !== null && group.members.some((member) => member.userId === userId) ? [group.rootRole] : []));
}

interface RolesAt {
  revision: GroupsRevision;
  rolesByUser: Map<number, RootRoleId[]>;
}

/** The same move of the revision: equal values with different stamps are different histories. */
const sameRevision = (a: GroupsRevision, b: GroupsRevision): boolean => a.value === b.value && a.since === b.since && a.movedAt === b.movedAt;

/**
 * The root roles users hold through groups, kept per groups' revision: a session reads the
 * revision with its session and user, strongly consistent, and the groups are read again only when
 * it moved (every transaction that writes a group moves it: docs/adr/0027-groups-revision.md). A
 * group change therefore holds from the next request on every container, as when the groups were
 * read on every request. Without a trusted revision (a table from before it, or within its first
 * minutes) the groups are read on every request, as before.
 */
export class GroupRolesByRevision {
  private kept: RolesAt | undefined;
  /** One keepable read of the groups at a time per revision: a page's concurrent requests share it. */
  private reading: { revision: GroupsRevision; roles: Promise<RolesAt> } | undefined;
  /** Moved on when the revision went back: reads started before then are not kept. */
  private history = 0;

  constructor(
    private readonly groups: { list(): Promise<Group[]> },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async rolesOf(userId: number, revision: GroupsRevision | undefined): Promise<RootRoleId[]> {
    if (!revision || !isTrusted(revision, this.now().getTime())) return groupRootRolesOf(await this.groups.list(), userId);
    this.forgetIfWentBack(revision);
    const kept = this.kept && sameRevision(this.kept.revision, revision) ? this.kept : await this.readAt(revision);
    return kept.rolesByUser.get(userId) ?? [];
  }

  /**
   * A revision below the kept one (or the same value moved at another time) is another history of
   * the item: deleted and made again at 0, or a table restored under the same name while this
   * container stayed warm. What was kept may then name a revision the table reaches again with
   * other groups, so it goes, as does every read still running: an extra read only.
   */
  private forgetIfWentBack(revision: GroupsRevision): void {
    if (!this.kept || revision.value > this.kept.revision.value || sameRevision(this.kept.revision, revision)) return;
    this.kept = undefined;
    this.reading = undefined;
    this.history += 1;
  }

  /**
   * The groups read after the revision was: what the read answers is at least as new as that
   * revision, so keeping it under the revision can only make a later request read again, never
   * answer older groups. Except while the move may still be committing (a Query is only
   * read-committed: GROUPS_REVISION_MOVE_SETTLE_MS): such a read answers this request alone, is
   * not kept, and no later request shares it.
   */
  private readAt(revision: GroupsRevision): Promise<RolesAt> {
    if (this.reading && sameRevision(this.reading.revision, revision)) return this.reading.roles;
    const keepable = isKeepableRead(revision, this.now().getTime());
    const history = this.history;
    const roles = this.groups.list().then((groups) => {
      const read = { revision, rolesByUser: rolesByUser(groups) };
      // A read that finished after a newer revision's keeps the newer one.
      if (keepable && history === this.history && (!this.kept || this.kept.revision.value < revision.value)) this.kept = read;
      return read;
    });
    if (!keepable) return roles;
    const reading = { revision, roles };
    this.reading = reading;
    return roles.finally(() => {
      if (this.reading === reading) this.reading = undefined;
    });
  }
}

function rolesByUser(groups: readonly Group[]): Map<number, RootRoleId[]> {
  const roles = new Map<number, RootRoleId[]>();
  for (const group of groups) {
    if (group.rootRole === null) continue;
    for (const { userId } of group.members) roles.set(userId, [...(roles.get(userId) ?? []), group.rootRole]);
  }
  return roles;
}
