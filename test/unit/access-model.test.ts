import { describe, expect, it } from 'vitest';
import { pathSchemaOf } from '../../lib/http/path-parameters.js';
import { newMembers, replaceMembers } from '../../lib/groups/model.js';
import { invalidEmailDomains } from '../../lib/oidc/model.js';
import { resolveRootRole, ROOT_ROLE } from '../../lib/roles/model.js';
import { cappedExpiry, isOpen, signupUrl } from '../../lib/signup-tokens/model.js';
import { imageUrlOf } from '../../lib/users/model.js';

describe('root roles', () => {
  it('are Admin 1, Editor 2, Viewer 3, found by id, id string or name', () => {
    expect(ROOT_ROLE).toEqual({ Admin: 1, Editor: 2, Viewer: 3 });
    expect(resolveRootRole(1)?.name).toBe('Admin');
    expect(resolveRootRole('2')?.name).toBe('Editor');
    expect(resolveRootRole('Viewer')?.id).toBe(3);
    expect(resolveRootRole('viewer')).toBeUndefined();
    expect(resolveRootRole(4)).toBeUndefined();
  });
});

describe('group membership replacement', () => {
  const current = [
    { userId: 1, joinedAt: '2026-01-01T00:00:00.000Z', createdBy: 'first' },
    { userId: 2, joinedAt: '2026-01-02T00:00:00.000Z', createdBy: 'first' },
  ];

  it('keeps members who stay as they were, adds new ones now, drops the rest, ignores repeats', () => {
    const next = replaceMembers(current, [2, 3, 3], '2026-02-01T00:00:00.000Z', 'second');

    expect(next).toEqual([
      { userId: 2, joinedAt: '2026-01-02T00:00:00.000Z', createdBy: 'first' },
      { userId: 3, joinedAt: '2026-02-01T00:00:00.000Z', createdBy: 'second' },
    ]);
    expect(newMembers(current, next)).toEqual([3]);
  });
});

describe('public signup tokens', () => {
  const now = new Date('2026-01-31T12:00:00.000Z');

  it('are open while enabled and unexpired; expiry wins over what is stored', () => {
    expect(isOpen({ enabled: true, expiresAt: '2026-02-01T00:00:00.000Z' }, now)).toBe(true);
    expect(isOpen({ enabled: true, expiresAt: '2026-01-31T12:00:00.000Z' }, now)).toBe(false);
    expect(isOpen({ enabled: false, expiresAt: '2027-01-01T00:00:00.000Z' }, now)).toBe(false);
  });

  it('live at most one month from creation', () => {
    expect(cappedExpiry(new Date('2027-01-01T00:00:00.000Z'), now).toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(cappedExpiry(new Date('2026-02-10T00:00:00.000Z'), now).toISOString()).toBe('2026-02-10T00:00:00.000Z');
  });

  it('link to the new-user page of the instance', () => {
    expect(signupUrl('https://flags.example.com/', 'abc')).toBe('https://flags.example.com/new-user?invite=abc');
  });
});

describe('small access rules', () => {
  it('take numeric path ids (users, groups, segments) as whole numbers only, by one rule', () => {
    const schema = pathSchemaOf('/api/admin/groups/{groupId}/users/{id}');
    expect(schema.parse({ groupId: '42', id: '7' })).toEqual({ groupId: 42, id: 7 });
    for (const bad of ['abc', '1.5', '-1', '', '1e3', '0042', '9999999999999999']) {
      const result = schema.safeParse({ groupId: bad, id: '1' });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]).toMatchObject({ path: ['groupId'], message: 'ID should be a whole number' });
    }
  });

  it('accept comma-separated domains only', () => {
    expect(invalidEmailDomains('')).toEqual([]);
    expect(invalidEmailDomains('example.com, mail.example.org')).toEqual([]);
    expect(invalidEmailDomains('example.com,,localhost,-bad.com')).toEqual(['', 'localhost', '-bad.com']);
  });

  it('make the Gravatar URL from the e-mail, else the username, as Unleash does', () => {
    expect(imageUrlOf({ id: 1, email: null, username: 'admin' })).toBe(
      'https://gravatar.com/avatar/8c6976e5b5410415bde908bd4dee15dfb167a9c873fc4bb8a81f6f2ab448a918?s=42&d=retro&r=g',
    );
  });
});
