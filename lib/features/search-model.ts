import type { Environment } from '../environments/model.js';
import type { Filter } from '../http/query-filters.js';
import { environmentOf, isPotentiallyStale, type Feature, type FeatureTypeLifetimes } from './model.js';

/**
 * The feature search (`GET /api/admin/search/features`) as Unleash 7.6 answers it
 * (src/lib/features/feature-search): filters with operators, a sort, and a page. Pure rules here;
 * reading is search-service.ts's.
 */

/** Unleash's page: 50 features unless asked, at most 100 (normalizeQueryParams). */
export const SEARCH_LIMITS = { defaultLimit: 50, maxLimit: 100, maxOffset: 10_000_000 } as const;

type Equality = Filter<'IS' | 'IS_NOT' | 'IS_ANY_OF' | 'IS_NONE_OF'>;
type Inclusion = Filter<'INCLUDE' | 'DO_NOT_INCLUDE' | 'INCLUDE_ALL_OF' | 'INCLUDE_ANY_OF' | 'EXCLUDE_IF_ANY_OF' | 'EXCLUDE_ALL'>;
export interface DateFilter {
  operator: 'IS_BEFORE' | 'IS_ON_OR_AFTER';
  /** Midnight UTC of the day named. */
  at: string;
}

export type SortBy =
  | { field: 'createdAt' | 'name' | 'type' | 'stale' | 'project' | 'lastSeenAt' }
  | { field: 'environment'; environment: string };

export interface SearchQuery {
  /** Lower-case terms; a feature matches when its name, description or a tag contains any. */
  terms: string[];
  /** Archived features only (`archived=IS:true`), else active ones only. */
  archived: boolean;
  project: Equality | undefined;
  type: Equality | undefined;
  state: Equality | undefined;
  lifecycle: Equality | undefined;
  createdBy: Equality | undefined;
  tag: Inclusion | undefined;
  segment: Inclusion | undefined;
  /** Features enabled (or disabled) in any of the environments named. */
  status: Array<{ environment: string; enabled: boolean }>;
  /** The favourite statuses wanted (`favorite=IS:true` wants the caller's starred flags only); undefined: no favourite filter. */
  favorite: readonly boolean[] | undefined;
  /** The caller's starred flags before the rest, each part in the order asked (the admin UI's tables ask for it). */
  favoritesFirst: boolean;
  createdAt: DateFilter | undefined;
  lastSeenAt: DateFilter | undefined;
  sortBy: SortBy;
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** What a filter or sort may need beyond the feature: its project's environments, last-seen times, segment names. */
export interface SearchFacts {
  environments: Environment[];
  lastSeen: Record<string, string>;
  segmentNames: string[];
  now: Date;
}

/** INCLUDE(_ANY_OF): has any; INCLUDE_ALL_OF: has all; DO_NOT_INCLUDE, EXCLUDE_IF_ANY_OF: has none; EXCLUDE_ALL: lacks one. */
export function matchesInclusion(filter: Inclusion | undefined, has: ReadonlySet<string>): boolean {
  if (!filter) return true;
  const any = filter.values.some((value) => has.has(value));
  const all = filter.values.every((value) => has.has(value));
  switch (filter.operator) {
    case 'INCLUDE':
    case 'INCLUDE_ANY_OF':
      return any;
    case 'INCLUDE_ALL_OF':
      return all;
    case 'DO_NOT_INCLUDE':
    case 'EXCLUDE_IF_ANY_OF':
      return !any;
    case 'EXCLUDE_ALL':
      return !all;
  }
}

export function matchesDate(filter: DateFilter | undefined, at: string | null): boolean {
  if (!filter) return true;
  if (at === null) return false;
  return filter.operator === 'IS_BEFORE' ? Date.parse(at) < Date.parse(filter.at) : Date.parse(at) >= Date.parse(filter.at);
}

/** Unleash's states: `stale` is marked stale, `potentially-stale` outlived its type, `active` is neither stale mark. */
export function stateOf(feature: Feature, now: Date, lifetimes: FeatureTypeLifetimes = {}): Set<string> {
  if (feature.stale) return new Set(['stale']);
  return isPotentiallyStale(feature, now, lifetimes) ? new Set(['active', 'potentially-stale']) : new Set(['active']);
}

/** Matches the state filter as Unleash does: a feature is in a state when any of its states is listed. */
export function matchesState(filter: Equality | undefined, feature: Feature, now: Date, lifetimes: FeatureTypeLifetimes = {}): boolean {
  if (!filter) return true;
  const states = stateOf(feature, now, lifetimes);
  // `active` in Unleash means "not marked stale", potentially stale or not; listing
  // `potentially-stale` narrows active to those that outlived their type.
  const wanted = new Set(filter.values);
  const listed = wanted.has('stale') && states.has('stale')
    || (wanted.has('potentially-stale') && states.has('potentially-stale'))
    || (wanted.has('active') && !wanted.has('potentially-stale') && states.has('active'));
  return filter.operator === 'IS' || filter.operator === 'IS_ANY_OF' ? listed : !listed;
}

export function matchesTerms(terms: string[], feature: Feature): boolean {
  if (terms.length === 0) return true;
  const texts = [feature.name, feature.description ?? '', ...feature.tags.map((tag) => `${tag.type}:${tag.value}`)].map((text) => text.toLowerCase());
  return terms.some((term) => texts.some((text) => text.includes(term)));
}

/** The latest time SDKs reported the feature in any environment. */
export function lastSeenOf(lastSeen: Record<string, string>): string | null {
  return Object.values(lastSeen).sort().at(-1) ?? null;
}

/** Whether the feature is on in `environment`; undefined when that environment is not its project's. */
export function enabledIn(feature: Feature, environment: string, environments: Environment[]): boolean | undefined {
  return environments.some((known) => known.name === environment) ? environmentOf(feature, environment).enabled : undefined;
}

const names = new Intl.Collator('en', { sensitivity: 'variant' });

/**
 * Unleash's order: the sort key in the asked order (missing values last either way), then oldest
 * first, then by name. Sorting by last seen takes the latest report for `desc` and the earliest
 * for `asc`, as Unleash ranks a feature by its best environment.
 */
export function compareFor(sortBy: SortBy, order: 'asc' | 'desc', facts: (feature: Feature) => SearchFacts) {
  const key = (feature: Feature): string | number | boolean | null => {
    switch (sortBy.field) {
      case 'createdAt': return Date.parse(feature.createdAt);
      case 'name': return feature.name;
      case 'type': return feature.type;
      case 'stale': return feature.stale;
      case 'project': return feature.project;
      case 'lastSeenAt': {
        const times = Object.values(facts(feature).lastSeen).sort();
        return (order === 'desc' ? times.at(-1) : times[0]) ?? null;
      }
      case 'environment': return enabledIn(feature, sortBy.environment, facts(feature).environments) ?? null;
    }
  };
  const direction = order === 'asc' ? 1 : -1;
  return (a: Feature, b: Feature): number => {
    const [x, y] = [key(a), key(b)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const byKey = typeof x === 'string' && typeof y === 'string' ? names.compare(x, y) : Number(x) - Number(y);
      if (byKey !== 0) return direction * byKey;
    }
    if (sortBy.field === 'createdAt') return names.compare(a.name, b.name);
    return Date.parse(a.createdAt) - Date.parse(b.createdAt) || names.compare(a.name, b.name);
  };
}
