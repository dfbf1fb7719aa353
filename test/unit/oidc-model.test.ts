import { describe, expect, it } from 'vitest';
import { groupsAt } from '../../lib/oidc/model.js';
import { oidcSettingsInputSchema } from '../../lib/oidc/schemas.js';

describe('groupsAt: the groups an ID token holds at groupJsonPath', () => {
  it('reads a claim, a dotted path, and a namespaced claim whose name holds dots', () => {
    const claims = {
      groups: ['a', 'b'],
      realm_access: { roles: ['r1'] },
      'https://example.com/groups': ['ns'],
    };

    expect(groupsAt(claims, 'groups')).toEqual(['a', 'b']);
    expect(groupsAt(claims, 'realm_access.roles')).toEqual(['r1']);
    expect(groupsAt(claims, 'https://example.com/groups')).toEqual(['ns']);
  });

  it('takes one string as one group and leaves out what is not a group name', () => {
    expect(groupsAt({ group: 'only' }, 'group')).toEqual(['only']);
    expect(groupsAt({ groups: ['x', 7, { name: 'y' }, null] }, 'groups')).toEqual(['x']);
    expect(groupsAt({ groups: [] }, 'groups')).toEqual([]);
  });

  it('finds no groups where the claim is missing: leaving the groups scope out must not keep memberships', () => {
    expect(groupsAt({ groups: { a: 1 } }, 'groups')).toEqual([]);
    expect(groupsAt({}, 'groups')).toEqual([]);
    expect(groupsAt({}, 'realm_access.roles')).toEqual([]);
    expect(groupsAt({ realm_access: ['r'] }, 'realm_access.roles')).toEqual([]);
  });

  it('is undefined only when the token says its groups are elsewhere (Entra ID past 200 groups)', () => {
    expect(groupsAt({ _claim_names: { groups: 'src1' }, _claim_sources: { src1: {} } }, 'groups')).toBeUndefined();
    expect(groupsAt({ hasgroups: true }, 'groups')).toBeUndefined();
    expect(groupsAt({ _claim_names: { roles: 'src1' } }, 'groups')).toEqual([]);
  });
});

describe('E19 body rules that need more than one field', () => {
  const base = { clientId: 'c', secret: 's' };

  it('needs a discovery URL while enabled, and a group path while group syncing is on', () => {
    const withoutUrl = oidcSettingsInputSchema.safeParse({ ...base, enabled: true });
    const withoutPath = oidcSettingsInputSchema.safeParse({
      ...base, discoverUrl: 'https://idp.example.com/.well-known/openid-configuration', enableGroupSyncing: true,
    });

    expect(withoutUrl.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['discoverUrl']);
    expect(withoutPath.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['groupJsonPath']);
    expect(oidcSettingsInputSchema.safeParse({ ...base, enabled: false }).success).toBe(true);
  });

  it('keeps the group settings and refuses a group path with spaces', () => {
    const parsed = oidcSettingsInputSchema.parse({ ...base, enableGroupSyncing: true, groupJsonPath: 'realm_access.roles', addGroupsScope: true });

    expect(parsed).toMatchObject({ enableGroupSyncing: true, groupJsonPath: 'realm_access.roles', addGroupsScope: true });
    expect(oidcSettingsInputSchema.safeParse({ ...base, groupJsonPath: 'my groups' }).success).toBe(false);
  });
});
