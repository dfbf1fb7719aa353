import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../lib/errors.js';
import type { Feature } from '../../lib/features/model.js';
import { isPotentiallyStale, projectHealth } from '../../lib/projects/health.js';
import { compileNamingPattern, MAX_PATTERN_PROGRAM } from '../../lib/features/rules/naming.js';
import { checkFeatureNaming } from '../../lib/projects/naming.js';

const naming = (pattern: string | null, example: string | null = null) => ({ pattern, example, description: null });

describe('feature naming pattern (§6.8)', () => {
  it('accepts a pattern whose example matches it as a whole', () => {
    expect(() => checkFeatureNaming(naming('[a-z]+-[0-9]+', 'team-42'))).not.toThrow();
    expect(() => checkFeatureNaming(naming('feat\\.[a-z]+'))).not.toThrow();
    expect(() => checkFeatureNaming(null)).not.toThrow();
  });

  it('refuses a pattern that does not compile as a regular expression', () => {
    expect(() => checkFeatureNaming(naming('[a-z'))).toThrow(/^featureNaming\.pattern: is not a valid RE2 regular expression/);
  });

  it('matches on RE2, which answers a nested quantifier on a long name that a backtracking engine would take ages over', () => {
    const compiled = compileNamingPattern('(a+)+b');
    if (!('matches' in compiled)) throw new Error(compiled.problem);

    expect(compiled.matches('a'.repeat(100))).toBe(false);
    expect(compiled.matches(`${'a'.repeat(99)}b`)).toBe(true);
  });

  it('anchors both ends even when the pattern is an alternation', () => {
    const compiled = compileNamingPattern('team-[a-z]+|ops');
    if (!('matches' in compiled)) throw new Error(compiled.problem);

    expect(compiled.matches('team-search')).toBe(true);
    expect(compiled.matches('ops')).toBe(true);
    expect(compiled.matches('team-search-ops!')).toBe(false);
    expect(compiled.matches('x-ops')).toBe(false);
  });

  it.each(['([a-z])\\1', '(?=a)[a-z]+', '(?!a)[a-z]+', '[a-z]+(?<=a)'])('refuses %j: RE2 has no backreferences or lookaround', (pattern) => {
    expect(() => checkFeatureNaming(naming(pattern))).toThrow(/^featureNaming\.pattern: is not a valid RE2 regular expression .*lookaround/);
  });

  it('refuses a pattern whose compiled program exceeds the cap, and takes one just under it', () => {
    expect(() => checkFeatureNaming(naming('.{1,1000}'))).toThrow(new RegExp(`^featureNaming\\.pattern: is too complex .*at most ${MAX_PATTERN_PROGRAM}`));
    expect(() => checkFeatureNaming(naming('[a-z]{1,100}-[0-9]{1,100}'))).not.toThrow();
  });

  it('anchors the pattern: an example that only contains a match is refused', () => {
    expect(() => checkFeatureNaming(naming('[a-z]+', 'abc-1'))).toThrow(/^featureNaming\.example: "abc-1" does not match/);
  });

  it.each(['a\\sb', '\\t', 'x\\n', 'a b'])('refuses whitespace in %j, since feature names never contain it', (pattern) => {
    expect(() => checkFeatureNaming(naming(pattern))).toThrow(/^featureNaming\.pattern: must not match whitespace/);
  });

  it('treats an escaped backslash followed by s as no whitespace escape', () => {
    expect(() => checkFeatureNaming(naming('a\\\\s'))).not.toThrow();
  });

  it('refuses an example without a pattern', () => {
    expect(() => checkFeatureNaming(naming(null, 'abc'))).toThrow(ValidationFailed);
  });
});

const NOW = new Date('2026-06-01T00:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();
const feature = (overrides: Partial<Feature>): Feature => ({
  name: 'f', project: 'p', type: 'release', description: null, impressionData: false, stale: false, archived: false,
  archivedAt: null, createdAt: daysAgo(1), environments: {}, tags: [], dependencies: [], children: [], version: 1, ...overrides,
});

describe('project health (§6.2)', () => {
  it('is 100 with no features', () => {
    expect(projectHealth([], NOW)).toBe(100);
  });

  it('takes away the stale and the potentially stale shares of the active features, rounded', () => {
    const features = [
      feature({ stale: true }),
      feature({ type: 'operational', createdAt: daysAgo(8) }),
      feature({}),
      feature({ archived: true, stale: true }),
    ];

    expect(projectHealth(features, NOW)).toBe(33);
  });

  it('counts a feature as potentially stale only past its type lifetime, and never for permanent or unknown types', () => {
    expect(isPotentiallyStale(feature({ type: 'release', createdAt: daysAgo(41) }), NOW)).toBe(true);
    expect(isPotentiallyStale(feature({ type: 'release', createdAt: daysAgo(39) }), NOW)).toBe(false);
    expect(isPotentiallyStale(feature({ type: 'kill-switch', createdAt: daysAgo(4000) }), NOW)).toBe(false);
    expect(isPotentiallyStale(feature({ type: 'custom-type', createdAt: daysAgo(4000) }), NOW)).toBe(false);
    expect(isPotentiallyStale(feature({ type: 'release', createdAt: daysAgo(41), stale: true }), NOW)).toBe(false);
  });
});
