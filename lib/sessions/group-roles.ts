import type { Group } from '../groups/model.js';
import type { RootRoleId } from '../roles/model.js';
import { isTrusted, type GroupsRevision } from '../store/groups-revision.js';

/** The root roles a user holds through their groups. */
export function groupRootRolesOf(groups: readonly Group[], userId: number): RootRoleId[] {
  return groups.flatMap((group) => (group.rootRole !== null && group.members.some((member) => member.userId === userId) ? [group.rootRole] : []));
}

interface RolesAt {
  revision: number;
  rolesByUser: Map<number, RootRoleId[]>;
}

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
  /** One read of the groups at a time per revision: a page's concurrent requests share it. */
  private reading: { revision: number; roles: Promise<RolesAt> } | undefined;

  constructor(
    private readonly groups: { list(): Promise<Group[]> },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async rolesOf(userId: number, revision: GroupsRevision | undefined): Promise<RootRoleId[]> {
    if (!revision || !isTrusted(revision, this.now().getTime())) return groupRootRolesOf(await this.groups.list(), userId);
    const kept = this.kept?.revision === revision.value ? this.kept : await this.readAt(revision.value);
    return kept.rolesByUser.get(userId) ?? [];
  }

  /**
   * The groups read after the revision was: what the read answers is at least as new as that
   * revision, so keeping it under the revision can only make a later request read again, never
   * answer older groups.
   */
  private readAt(revision: number): Promise<RolesAt> {
    if (this.reading?.revision === revision) return this.reading.roles;
    const roles = this.groups.list().then((groups) => {
      const read = { revision, rolesByUser: rolesByUser(groups) };
      // A read that finished after a newer revision's keeps the newer one.
      if (!this.kept || this.kept.revision < revision) this.kept = read;
      return read;
    }).finally(() => {
      if (this.reading?.revision === revision) this.reading = undefined;
    });
    this.reading = { revision, roles };
    return roles;
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
