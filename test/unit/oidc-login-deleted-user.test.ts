import { describe, expect, it } from 'vitest';
import { GroupService } from '../../lib/groups/service.js';
import { LoginRefused, SsoAccounts, type SsoUsers } from '../../lib/oidc/accounts.js';
import { OidcLoginService, type AdmitSettings } from '../../lib/oidc/login.js';
import type { User } from '../../lib/users/model.js';
import { FakeGroupStore } from '../support/fakes/group-store.js';

const alice: User = {
  id: 7, name: 'Alice', email: 'alice@example.com', username: null, rootRole: 3, createdAt: '2026-01-01T00:00:00.000Z',
  createdBy: 'admin-token', seenAt: null, loginAttempts: 0, signupToken: null, version: 1,
};

const settings: AdmitSettings = {
  autoCreate: false, emailDomains: null, defaultRootRole: 'Viewer', defaultRootRoleId: null,
  enableGroupSyncing: true, groupJsonPath: 'groups',
};

/**
 * The store's side of a single sign-on login (`admit`) for a person whose account is found, then
 * deleted by an administrator before their groups are synced: the provider's side is not involved.
 */
async function loginOfUserDeletedMidway() {
  const existing = new Set([alice.id]);
  const groups = new GroupService(new FakeGroupStore(existing), { getMany: async () => [] }, () => new Date('2026-03-01T00:00:00.000Z'));
  await groups.create({ name: 'admins', mappingsSSO: ['idp-admins'] }, 'admin-token');
  const users: SsoUsers = {
    findByIdentity: async () => {
      existing.delete(alice.id);
      return alice;
    },
    findByEmail: async () => undefined,
    createLinked: async () => { throw new Error('no user is created in this test'); },
    linkIdentity: async () => { throw new Error('no identity is linked in this test'); },
  };
  const recorded: number[] = [];
  const started: number[] = [];
  const unused = {} as never;
  const login = new OidcLoginService(
    unused, unused, unused,
    new SsoAccounts(users),
    { recordLogin: async (id) => void recorded.push(id) },
    groups,
    { start: async (user) => { started.push(user.id); return 'session-cookie'; } },
    { publicUrl: 'http://127.0.0.1:4242', secureCookies: false },
  );
  return { login, groups, recorded, started };
}

describe('a single sign-on login whose user is deleted while their groups are synced', () => {
  it('is refused as a login without an account, with no session, no login recorded and no group joined', async () => {
    const { login, groups, recorded, started } = await loginOfUserDeletedMidway();

    const outcome = login.admit({ iss: 'https://idp.example', sub: 'alice', groups: ['idp-admins'], idToken: 'id-token' }, settings);

    await expect(outcome).rejects.toBeInstanceOf(LoginRefused);
    await expect(outcome).rejects.toThrow('Ask an administrator to add you');
    expect(started).toEqual([]);
    expect(recorded).toEqual([]);
    expect((await groups.get(1)).group.members).toEqual([]);
  });
});
