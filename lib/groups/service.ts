import { Conflict, NotFound, ValidationFailed } from '../errors.js';
import { retryOnChange } from '../optimistic.js';
import { rootRoleById, type RootRoleId } from '../roles/model.js';
import type { User } from '../users/model.js';
import { newMembers, replaceMembers, type Group, type GroupDetails } from './model.js';
import type { GroupStore, GroupWriteOutcome } from './store.js';

export interface GroupInput {
  name: string;
  description?: string | null | undefined;
  mappingsSSO?: string[] | undefined;
  rootRole?: number | null | undefined;
  /** The members: exactly these user ids. */
  userIds?: number[] | undefined;
}

/** A group with its members' users resolved; members whose user is gone are left out. */
export interface GroupView {
  group: Group;
  users: Map<number, User>;
}

export interface UserLookup {
  getMany(ids: number[]): Promise<User[]>;
}

export class GroupService {
  constructor(
    private readonly store: GroupStore,
    private readonly users: UserLookup,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(): Promise<GroupView[]> {
    const groups = (await this.store.list()).sort((a, b) => a.id - b.id);
    const users = await this.usersOf(groups);
    return groups.map((group) => ({ group, users }));
  }

  async get(id: number): Promise<GroupView> {
    const group = await this.find(id);
    return { group, users: await this.usersOf([group]) };
  }

  /** The ids of the groups the user is a member of. */
  async groupIdsOf(userId: number): Promise<number[]> {
    return (await this.store.list()).filter((group) => group.members.some((m) => m.userId === userId)).map((g) => g.id);
  }

  async create(input: GroupInput, actor: string): Promise<GroupView> {
    const now = this.now().toISOString();
    // Checked before an id is drawn, so a refused create leaves the counter alone.
    const details = detailsOf(input);
    // The members' users are read before the write: once the group is stored nothing may fail.
    const users = await this.usersById(input.userIds ?? []);
    const group: Group = {
      id: await this.store.nextId(),
      ...details,
      createdAt: now,
      createdBy: actor,
      members: replaceMembers([], input.userIds ?? [], now, actor),
      version: 1,
    };
    refuse(await this.store.insert(group, actor), group.name);
    return { group, users };
  }

  /** The input replaces the group's details and its membership; members who stay keep `joinedAt`. */
  async update(id: number, input: GroupInput, actor: string): Promise<GroupView> {
    const details = detailsOf(input);
    // The members are exactly `userIds`: their users are read before the write, as in create.
    const users = await this.usersById(input.userIds ?? []);
    const group = await retryOnChange('group', async () => {
      const before = await this.find(id);
      const members = replaceMembers(before.members, input.userIds ?? [], this.now().toISOString(), actor);
      const after: Group = { ...before, ...details, members, version: before.version + 1 };
      const outcome = await this.store.replace(before, after, newMembers(before.members, members), actor);
      if (outcome.kind === 'changed') return undefined;
      refuse(outcome, after.name);
      return after;
    });
    return { group, users };
  }

  /**
   * Single sign-on's group syncing, as Unleash does it: the user joins every group whose
   * `mappingsSSO` names one of `ssoGroups`, and leaves every group with mappings that names
   * none of them. Groups without mappings are managed by hand and left alone. The changes are
   * one write of the person's own membership entries (`GroupStore.syncMember`), on the groups as
   * read: a crowd's first logins joining the same group at once each add themselves without
   * failing on one another, and a group whose mappings changed meanwhile is read and decided again.
   * 'unknown-user' when the user was deleted meanwhile: no group takes them, and the login that
   * asked is the caller's to refuse (it is no error in anyone's input).
   */
  async syncSsoMemberships(userId: number, ssoGroups: readonly string[], actor: string): Promise<'done' | 'unknown-user'> {
    const names = new Set(ssoGroups);
    const belongs = (group: Group) => group.mappingsSSO.some((name) => names.has(name));
    const isMember = (group: Group) => group.members.some((member) => member.userId === userId);
    return retryOnChange('group', async () => {
      const mapped = (await this.store.list()).filter((group) => group.mappingsSSO.length > 0);
      const join = mapped.filter((group) => belongs(group) && !isMember(group));
      const leave = mapped.filter((group) => !belongs(group) && isMember(group));
      // Already as it should be (a returning person, or another login of the same person).
      if (join.length === 0 && leave.length === 0) return 'done' as const;
      const outcome = await this.store.syncMember(userId, join, leave, this.now().toISOString(), actor);
      return outcome === 'changed' ? undefined : outcome;
    });
  }

  async delete(id: number, actor: string): Promise<void> {
    await retryOnChange('group', async () => ((await this.store.delete(await this.find(id), actor)) === 'done' ? true : undefined));
  }

  private async find(id: number): Promise<Group> {
    const group = await this.store.get(id);
    if (!group) throw new NotFound(`No group found with id ${id}`);
    return group;
  }

  private async usersOf(groups: Group[]): Promise<Map<number, User>> {
    return this.usersById(groups.flatMap((group) => group.members.map((member) => member.userId)));
  }

  private async usersById(ids: number[]): Promise<Map<number, User>> {
    return new Map((await this.users.getMany(ids)).map((user) => [user.id, user]));
  }
}

/** Unleash's group rules: a non-empty name, and a root role that exists when one is given. */
function detailsOf(input: GroupInput): GroupDetails {
  const name = input.name.trim();
  if (!name) throw new ValidationFailed('name: Group name cannot be empty');
  return {
    name,
    description: input.description ?? null,
    mappingsSSO: input.mappingsSSO ?? [],
    rootRole: rootRoleOf(input.rootRole),
  };
}

function rootRoleOf(id: number | null | undefined): RootRoleId | null {
  if (id === null || id === undefined) return null;
  const role = rootRoleById(id);
  if (!role) throw new ValidationFailed(`rootRole: Incorrect role id ${id}; root roles are 1 (Admin), 2 (Editor), 3 (Viewer)`);
  return role.id;
}

/** Turns a refused write into the interface's error; a write that went through passes. */
function refuse(outcome: GroupWriteOutcome, name: string): void {
  if (outcome.kind === 'name-taken') throw new Conflict(`Group name already exists: ${name}`);
  if (outcome.kind === 'unknown-user') throw new ValidationFailed(`users: Incorrect user id ${outcome.userId} in the users of the group; no such user`);
  if (outcome.kind === 'changed') throw new Conflict('The group changed while it was written; try again');
}
