import { describe, expect, it } from 'vitest';
import type { Feature } from '../../lib/features/model.js';
import { compareFor, matchesDate, matchesInclusion, matchesState, type SearchFacts } from '../../lib/features/search-model.js';

const feature = (name: string, overrides: Partial<Feature> = {}): Feature => ({
  name, project: 'p', type: 'release', description: null, impressionData: false, stale: false, archived: false, archivedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z', environments: {}, tags: [], dependencies: [], children: [], version: 1, ...overrides,
});
const now = new Date('2026-03-01T00:00:00.000Z');

describe('the search\'s sort by last seen', () => {
  const lastSeen: Record<string, Record<string, string>> = {
    early: { development: '2026-02-01T00:00:00.000Z', production: '2026-02-20T00:00:00.000Z' },
    middle: { development: '2026-02-10T00:00:00.000Z' },
    never: {},
  };
  const facts = (f: Feature): SearchFacts => ({ environments: [], lastSeen: lastSeen[f.name] ?? {}, segmentNames: [], now });
  const sorted = (order: 'asc' | 'desc') =>
    [feature('never'), feature('middle'), feature('early')].sort(compareFor({ field: 'lastSeenAt' }, order, facts)).map((f) => f.name);

  it('ranks a feature by its earliest report ascending and its latest descending, never-seen last both ways', () => {
    expect(sorted('asc')).toEqual(['early', 'middle', 'never']);
    expect(sorted('desc')).toEqual(['early', 'middle', 'never']);
    lastSeen.middle = { development: '2026-02-25T00:00:00.000Z' };
    expect(sorted('desc')).toEqual(['middle', 'early', 'never']);
  });
});

describe('the search\'s filters', () => {
  it('compares dates with the day\'s midnight UTC: before is strictly earlier, on or after includes it', () => {
    const at = '2026-02-01T00:00:00.000Z';
    expect(matchesDate({ operator: 'IS_BEFORE', at }, '2026-01-31T23:59:59.999Z')).toBe(true);
    expect(matchesDate({ operator: 'IS_BEFORE', at }, at)).toBe(false);
    expect(matchesDate({ operator: 'IS_ON_OR_AFTER', at }, at)).toBe(true);
    expect(matchesDate({ operator: 'IS_ON_OR_AFTER', at }, null)).toBe(false);
  });

  it('reads INCLUDE_ALL_OF and EXCLUDE_ALL over the whole list', () => {
    const has = new Set(['simple:a', 'simple:b']);
    expect(matchesInclusion({ operator: 'INCLUDE_ALL_OF', values: ['simple:a', 'simple:c'] }, has)).toBe(false);
    expect(matchesInclusion({ operator: 'EXCLUDE_ALL', values: ['simple:a', 'simple:c'] }, has)).toBe(true);
    expect(matchesInclusion({ operator: 'EXCLUDE_ALL', values: ['simple:a', 'simple:b'] }, has)).toBe(false);
  });

  it('counts a feature past its type\'s lifetime as active and potentially stale, a stale-marked one as neither', () => {
    const old = feature('old', { createdAt: '2025-01-01T00:00:00.000Z' });
    const marked = feature('marked', { stale: true, createdAt: '2025-01-01T00:00:00.000Z' });
    expect(matchesState({ operator: 'IS', values: ['active'] }, old, now)).toBe(true);
    expect(matchesState({ operator: 'IS', values: ['potentially-stale'] }, old, now)).toBe(true);
    expect(matchesState({ operator: 'IS', values: ['potentially-stale'] }, feature('young', { createdAt: '2026-02-20T00:00:00.000Z' }), now)).toBe(false);
    expect(matchesState({ operator: 'IS_NOT', values: ['stale'] }, marked, now)).toBe(false);
  });
});
