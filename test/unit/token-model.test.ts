import { describe, expect, it } from 'vitest';
import {
  checkScope,
  formatSecret,
  hashSecret,
  hashesMatch,
  isExpired,
  isTokenId,
  listedSecretOf,
  maskedSecretOf,
  tokenIdOfListedSecret,
  normaliseProjects,
  parseSecret,
  secretHintOf,
  tokenIdOf,
} from '../../lib/tokens/model.js';

describe('token secrets', () => {
  it('are formatted as <project>:<environment>.<56 hex>, with [] for several projects', () => {
    expect(formatSecret(['*'], '*')).toMatch(/^\*:\*\.[0-9a-f]{56}$/);
    expect(formatSecret(['default'], 'production')).toMatch(/^default:production\.[0-9a-f]{56}$/);
    expect(formatSecret(['a', 'b'], 'development')).toMatch(/^\[\]:development\.[0-9a-f]{56}$/);
  });

  it('are never the same twice', () => {
    expect(formatSecret(['*'], '*')).not.toBe(formatSecret(['*'], '*'));
  });

  it('parse into project and environment, and anything else does not parse', () => {
    expect(parseSecret('*:development.abc.def')).toEqual({ project: '*', environment: 'development' });
    expect(parseSecret('no-colon.abc')).toBeUndefined();
    expect(parseSecret('a:b')).toBeUndefined();
  });

  it('hint at their scope only, never at a character of their random part', () => {
    expect(secretHintOf('*:development.0123456789abcdef')).toBe('*:development.****');
    expect(secretHintOf('no-scope-at-all')).toBe('****');
  });

  it('are shown in lists as the scope prefix every secret of that scope starts with', () => {
    expect(maskedSecretOf({ projects: ['*'], environment: 'development' })).toBe('*:development.****');
    expect(maskedSecretOf({ projects: ['default'], environment: 'production' })).toBe('default:production.****');
    expect(maskedSecretOf({ projects: ['a', 'b'], environment: 'production' })).toBe('[]:production.****');
  });

  it("lists a token as its masked secret and its id, which names the token back and is never a secret's shape", () => {
    const tokenId = '0123456789abcdef';
    const listed = listedSecretOf({ projects: ['default'], environment: 'production', tokenId });
    expect(listed).toBe('default:production.****0123456789abcdef');
    expect(tokenIdOfListedSecret(listed)).toBe(tokenId);
    expect(tokenIdOfListedSecret(listedSecretOf({ projects: ['a', 'b'], environment: '*', tokenId }))).toBe(tokenId);
    // A real secret, a bare mask, a mask with a short or non-hex id, and no scope name no token.
    expect(tokenIdOfListedSecret(`default:production.${'a'.repeat(56)}`)).toBeUndefined();
    expect(tokenIdOfListedSecret('default:production.****')).toBeUndefined();
    expect(tokenIdOfListedSecret('default:production.****0123')).toBeUndefined();
    expect(tokenIdOfListedSecret('default:production.****0123456789abcdeg')).toBeUndefined();
    expect(tokenIdOfListedSecret('****0123456789abcdef')).toBeUndefined();
  });
});

describe('token ids', () => {
  it('are a 16-hex prefix of the hash, recognisable as such', () => {
    const id = tokenIdOf(hashSecret('*:*.x'));

    expect(isTokenId(id)).toBe(true);
    expect(isTokenId('*:*.x')).toBe(false);
  });

  it('compare hashes exactly', () => {
    expect(hashesMatch(hashSecret('a'), hashSecret('a'))).toBe(true);
    expect(hashesMatch(hashSecret('a'), hashSecret('b'))).toBe(false);
  });
});

describe('token scope rules', () => {
  it('hold admin tokens to all projects and environments', () => {
    expect(() => checkScope({ type: 'admin', environment: '*', projects: ['*'] })).not.toThrow();
    expect(() => checkScope({ type: 'admin', environment: 'development', projects: ['*'] })).toThrow(/single environment/);
    expect(() => checkScope({ type: 'admin', environment: '*', projects: ['default'] })).toThrow(/single project/);
  });

  it('hold SDK tokens to one environment', () => {
    expect(() => checkScope({ type: 'client', environment: '*', projects: ['*'] })).toThrow(/Client token/);
    expect(() => checkScope({ type: 'backend', environment: 'production', projects: ['a', 'b'] })).not.toThrow();
  });

  it('collapse a project list that names * to all projects, and drop repeats', () => {
    expect(normaliseProjects(['a', '*'])).toEqual(['*']);
    expect(normaliseProjects(['a', 'a', 'b'])).toEqual(['a', 'b']);
  });

  it('expire at expiresAt, and never without one', () => {
    const now = new Date('2026-01-01T00:00:00Z');

    expect(isExpired({ expiresAt: '2025-12-31T23:59:59Z' }, now)).toBe(true);
    expect(isExpired({ expiresAt: '2026-01-02T00:00:00Z' }, now)).toBe(false);
    expect(isExpired({ expiresAt: null }, now)).toBe(false);
  });
});
