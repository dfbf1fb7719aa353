/**
 * People: users (matched by e-mail, else username) with their root role by name, groups with
 * their members, root role and SSO mappings, and the single sign-on settings. No password can be
 * read, so each new user gets a reset link, listed for a person to hand out; no client secret
 * either, so single sign-on settings are listed for a person to enter.
 */
import type { AdminSide } from '../http.js';
import type { Kind, MigrationContext } from '../model.js';
import { text } from '../normalise.js';
import { simpleKind } from '../simple-kind.js';

interface User { id: number; email?: string | null; username?: string | null; name?: string | null; rootRole: number; rootRoleName?: string | null }
interface Role { id: number; name: string }

const keyOf = (user: Pick<User, 'email' | 'username'>) => (user.email ? user.email.toLowerCase() : `username:${user.username ?? ''}`);

/** Each side's root roles by id, read once per run. */
const roleNames = new WeakMap<AdminSide, Map<number, string>>();

async function readUsers(side: AdminSide): Promise<Map<string, User>> {
  const answer = await side.request<{ users: User[]; rootRoles?: Role[] }>('GET', '/api/admin/user-admin');
  roleNames.set(side, new Map((answer.rootRoles ?? []).map((role) => [role.id, role.name])));
  return new Map(answer.users.map((user) => [keyOf(user), { ...user, rootRoleName: roleName(side, user.rootRole) }]));
}

const roleName = (side: AdminSide, id: number | null | undefined) => (id === null || id === undefined ? null : roleNames.get(side)?.get(id) ?? `#${id}`);

export const users: Kind = simpleKind<User>({
  name: 'users',
  read: readUsers,
  comparable: (user) => ({ name: text(user.name), rootRole: user.rootRoleName }),
  create: async (user, context) => {
    const rootRole = user.rootRoleName;
    const created = await context.to.request<User>('POST', '/api/admin/user-admin', {
      ...(user.email ? { email: user.email } : {}),
      ...(user.username ? { username: user.username } : {}),
      ...(user.name ? { name: user.name } : {}),
      rootRole,
      sendEmail: false,
    });
    context.userIdsByKey.set(keyOf(user), created.id);
    const link = await resetLink(context.to, user);
    context.needsPerson.push(`user ${user.email ?? user.username}: no password can be read; send them ${link ?? 'a reset link from the admin UI'}`);
  },
  update: async (user, existing, context) => {
    await context.to.request('PUT', `/api/admin/user-admin/${existing.id}`, { name: text(user.name), rootRole: user.rootRoleName });
  },
  remember: (user, existing, context) => {
    context.userIdsByKey.set(keyOf(user), existing.id);
  },
});

/** A link the user sets a password through, as both servers make one for an admin. */
async function resetLink(side: AdminSide, user: User): Promise<string | undefined> {
  const answer = await side.optional<{ resetPasswordUrl?: string }>('POST', '/api/admin/user-admin/reset-password', { id: user.email ?? user.username });
  return answer?.resetPasswordUrl;
}

interface Group {
  id: number;
  name: string;
  description?: string | null;
  mappingsSSO?: string[];
  rootRole?: number | null;
  rootRoleName?: string | null;
  users?: Array<{ user: Pick<User, 'id' | 'email' | 'username'> }>;
}

const memberKeys = (group: Group) => (group.users ?? []).map((member) => keyOf(member.user)).sort();

async function groupBody(group: Group, context: MigrationContext) {
  const targetRoles = roleNames.get(context.to) ?? new Map<number, string>();
  const wantedRole = group.rootRoleName ?? null;
  const rootRole = wantedRole === null ? null : [...targetRoles].find(([, name]) => name === wantedRole)?.[0] ?? null;
  const members = memberKeys(group).flatMap((key) => {
    const id = context.userIdsByKey.get(key);
    return id === undefined ? [] : [{ user: { id } }];
  });
  return { name: group.name, description: text(group.description), mappingsSSO: [...(group.mappingsSSO ?? [])], rootRole, users: members };
}

export const groups: Kind = simpleKind<Group>({
  name: 'groups',
  read: async (side) => {
    const answer = await side.optional<{ groups: Group[] }>('GET', '/api/admin/groups');
    return answer === undefined ? undefined : new Map(answer.groups.map((group) => [group.name, { ...group, rootRoleName: roleName(side, group.rootRole) }]));
  },
  missingOnTarget: 'the target has no groups (Unleash OSS keeps groups for its Enterprise edition)',
  comparable: (group) => ({
    description: text(group.description),
    mappingsSSO: [...(group.mappingsSSO ?? [])].sort(),
    rootRole: group.rootRoleName ?? null,
    members: memberKeys(group),
  }),
  create: async (group, context) => {
    await context.to.request('POST', '/api/admin/groups', await groupBody(group, context));
  },
  update: async (group, existing, context) => {
    await context.to.request('PUT', `/api/admin/groups/${existing.id}`, await groupBody(group, context));
  },
  prune: async (existing, { to }) => {
    await to.request('DELETE', `/api/admin/groups/${existing.id}`);
  },
});

interface OidcSettings { enabled?: boolean; discoverUrl?: string; clientId?: string; [setting: string]: unknown }

/**
 * Single sign-on settings are not copied: their client secret cannot be read back (it is
 * masked), and settings without it would turn a working login into a broken one. A person
 * enters them; the report says which.
 */
export const singleSignOn: Kind = {
  name: 'single sign-on',
  async plan(context) {
    const settings = await context.from.optional<OidcSettings>('GET', '/api/admin/auth/oidc/settings');
    if (settings === undefined || settings.enabled !== true) return [];
    context.needsPerson.push(`single sign-on (OIDC, ${settings.discoverUrl ?? 'no discovery URL'}, client ${settings.clientId ?? '?'}): enter the settings and the client secret on ${context.to.url}/admin/auth; the secret cannot be read from ${context.from.url}`);
    return [{ kind: 'single sign-on', key: 'oidc', action: 'skip', detail: 'the client secret cannot be read: a person enters the settings' }];
  },
};

