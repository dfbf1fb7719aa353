import type { Environment } from '../environments/model.js';
import { matchesEquality } from '../http/query-filters.js';
import { segmentIdsOf, type Feature, type FeatureTypeLifetimes } from './model.js';
import type { FeatureCatalog, LastSeenReader } from './ports.js';
import {
  compareFor,
  matchesDate,
  matchesInclusion,
  matchesState,
  matchesTerms,
  lastSeenOf,
  enabledIn,
  type SearchFacts,
  type SearchQuery,
} from './search-model.js';
import type { FeatureStore } from './store.js';
import { lastSeenOfMany } from './views.js';
import { currentStage } from './rules/lifecycle.js';

/** One feature of the page with what its answer shows besides the aggregate. */
export interface SearchHit {
  feature: Feature;
  /** Starred by the caller. */
  favorite: boolean;
  environments: Environment[];
  lastSeen: Record<string, string>;
  segmentNames: string[];
}

/**
 * Every feature, archived ones included, as of a fresh revision read: the SDK snapshot of this
 * container (ClientFeatureService.everyFeature), which a warm container keeps by reading only
 * what changed (ADR 16) and a cold one starts from the stored snapshot (ADR 20).
 */
export type EveryFeature = () => Promise<readonly Feature[]>;

export interface SearchResult {
  hits: SearchHit[];
  /** How many features match, over all pages. */
  total: number;
}

/**
 * GET /api/admin/search/features: filter, sort, then cut one page. What is read grows with what
 * is asked: environments of the projects met, segment names only for the segments met, and
 * last-seen times only for the page, unless a last-seen filter or sort needs them for every match.
 */
export class FeatureSearchService {
  constructor(
    private readonly store: Pick<FeatureStore, 'listProject'>,
    private readonly catalog: FeatureCatalog,
    private readonly lastSeenReader: LastSeenReader,
    private readonly everyFeature: EveryFeature,
    /** The feature types' expected lifetimes as an admin set them: the potentially-stale state ages by them. */
    private readonly lifetimes: () => Promise<FeatureTypeLifetimes> = async () => ({}),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** `favourites`: the caller's starred flags, for the favourite filter, favourites first and each hit's star. */
  async search(query: SearchQuery, favourites: ReadonlySet<string> = new Set()): Promise<SearchResult> {
    const now = this.now();
    const reads = new RequestReads(this.catalog);
    // The project filter comes first: it is the one a key design can answer by reading less.
    const candidates = (await this.featuresOf(query))
      .filter((feature) => feature.archived === query.archived && matchesEquality(query.project, feature.project));
    const needsAllLastSeen = query.lastSeenAt !== undefined || query.sortBy.field === 'lastSeenAt';
    const lastSeenAll = needsAllLastSeen && candidates.length > 0 ? await lastSeenOfMany(this.lastSeenReader, candidates) : undefined;
    const needsEnvironments = query.status.length > 0 || query.sortBy.field === 'environment';
    const needsSegments = query.segment !== undefined;
    await reads.prepare(candidates, { environments: needsEnvironments, segments: needsSegments });
    const facts = (feature: Feature): SearchFacts => ({
      environments: reads.environmentsOf(feature.project),
      lastSeen: lastSeenAll?.get(feature.name) ?? {},
      segmentNames: reads.segmentNamesOf(feature),
      now,
    });

    // Read only when the state filter needs them (one small GetItem).
    const lifetimes = query.state ? await this.lifetimes() : {};
    const matching = candidates.filter((feature) =>
      matchesEquality(query.type, feature.type)
      && matchesState(query.state, feature, now, lifetimes)
      && matchesEquality(query.lifecycle, currentStage(feature).stage)
      && matchesEquality(query.createdBy, feature.createdBy === undefined ? undefined : String(feature.createdBy.id))
      && (query.favorite?.includes(favourites.has(feature.name)) ?? true)
      && matchesDate(query.createdAt, feature.createdAt)
      && matchesTerms(query.terms, feature)
      && matchesInclusion(query.tag, new Set(feature.tags.map((tag) => `${tag.type}:${tag.value}`)))
      && matchesInclusion(query.segment, new Set(facts(feature).segmentNames))
      && matchesStatus(query, feature, facts(feature).environments)
      && matchesDate(query.lastSeenAt, lastSeenOf(facts(feature).lastSeen)));
    const byQuery = compareFor(query.sortBy, query.sortOrder, facts);
    matching.sort(query.favoritesFirst
      ? (a, b) => Number(favourites.has(b.name)) - Number(favourites.has(a.name)) || byQuery(a, b)
      : byQuery);
    const page = matching.slice(query.offset, query.offset + query.limit);

    await reads.prepare(page, { environments: true, segments: true });
    const lastSeen = lastSeenAll ?? (await lastSeenOfMany(this.lastSeenReader, page));
    return {
      total: matching.length,
      hits: page.map((feature) => ({
        feature,
        favorite: favourites.has(feature.name),
        environments: reads.environmentsOf(feature.project),
        lastSeen: lastSeen.get(feature.name) ?? {},
        segmentNames: reads.segmentNamesOf(feature),
      })),
    };
  }

  /**
   * An IS or IS_ANY_OF project filter (the admin UI's project page) reads just those projects'
   * features (ADR 17); any other search filters every feature of the container's snapshot, which
   * costs a revision read and what changed since (at 50,000 flags, reading them all was 16,000
   * read units and over 10 s a page).
   */
  private async featuresOf(query: SearchQuery): Promise<readonly Feature[]> {
    const { project } = query;
    if (!project || (project.operator !== 'IS' && project.operator !== 'IS_ANY_OF') || project.values.length > PROJECTS_READ_ONE_BY_ONE) {
      return this.everyFeature();
    }
    return (await Promise.all([...new Set(project.values)].map((id) => this.store.listProject(id)))).flat();
  }
}

/** Up to this many projects in a project filter are read one by one; more, and every feature is read once. */
const PROJECTS_READ_ONE_BY_ONE = 10;

function matchesStatus(query: SearchQuery, feature: Feature, environments: Environment[]): boolean {
  if (query.status.length === 0) return true;
  return query.status.some(({ environment, enabled }) => enabledIn(feature, environment, environments) === enabled);
}

/** Environments per project and segment names per id, each read once per request, only when needed. */
class RequestReads {
  private readonly environments = new Map<string, Environment[]>();
  private readonly segmentNames = new Map<number, string | undefined>();

  constructor(private readonly catalog: FeatureCatalog) {}

  async prepare(features: Feature[], what: { environments: boolean; segments: boolean }): Promise<void> {
    const projects = what.environments ? [...new Set(features.map((f) => f.project))].filter((p) => !this.environments.has(p)) : [];
    const segments = what.segments ? [...new Set(features.flatMap((f) => [...segmentIdsOf(f)]))].filter((id) => !this.segmentNames.has(id)) : [];
    await Promise.all([
      ...projects.map(async (id) => {
        // A feature whose project is gone still answers, with no environments.
        const environments = await this.catalog.project(id).then((project) => this.catalog.environmentsOf(project), () => []);
        this.environments.set(id, environments);
      }),
      ...segments.map(async (id) => this.segmentNames.set(id, (await this.catalog.segment(id))?.name)),
    ]);
  }

  environmentsOf(project: string): Environment[] {
    return this.environments.get(project) ?? [];
  }

  segmentNamesOf(feature: Feature): string[] {
    return [...segmentIdsOf(feature)].map((id) => this.segmentNames.get(id)).filter((name): name is string => name !== undefined);
  }
}
