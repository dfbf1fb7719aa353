import type { Environment } from '../environments/model.js';
import { matchesEquality } from '../http/query-filters.js';
import type { Project } from '../projects/model.js';
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
import { lastSeenOfPage, withMetricsStages, type MetricsStageMark } from './views.js';
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

/** The admin read model as the search reads it: every feature and segment of one revision. */
export interface SearchReadModel {
  /** Every feature (archived ones too) and segment, as of a revision read made by the call itself. */
  everything(): Promise<{ features: readonly Feature[]; segmentsById: ReadonlyMap<number, { name: string }> }>;
  /** Whether this process already holds the read model, so that reading it costs the revision check and what changed since. */
  isWarm(): boolean;
  /**
   * The stages SDK metrics wrote on these projects' flags, by flag name (lib/features/views.ts):
   * those writes move no revision, so the read model holds them only from a flag's next change.
   */
  metricsStagesOf?(projectIds: readonly string[]): Promise<ReadonlyMap<string, MetricsStageMark>>;
}

export interface SearchResult {
  hits: SearchHit[];
  /** How many features match, over all pages. */
  total: number;
}

/**
 * GET /api/admin/search/features: filter, sort, then cut one page. The features come from the
 * admin read model (a revision check and what changed since) once this process holds it; the
 * filters that need nothing else run first, so what is read besides grows with what is left:
 * environments of the projects met, segment names only for the segments met (from the read model
 * when it answered), and last-seen times only for the page, unless a last-seen filter or sort
 * needs them for every match left.
 */
export class FeatureSearchService {
  constructor(
    private readonly store: ProjectFeatureStore,
    private readonly catalog: FeatureCatalog,
    private readonly lastSeenReader: LastSeenReader,
    private readonly readModel: SearchReadModel,
    /** The feature types' expected lifetimes as an admin set them: the potentially-stale state ages by them. */
    private readonly lifetimes: () => Promise<FeatureTypeLifetimes> = async () => ({}),
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * `favourites`: the caller's starred flags, for the favourite filter, favourites first and each
   * hit's star. Read while the features are when the filter or the order needs them, else only
   * for a page that holds a feature (a count asks for none).
   */
  async search(query: SearchQuery, favourites: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>) = new Set()): Promise<SearchResult> {
    const now = this.now();
    const readFavourites = typeof favourites === 'function' ? favourites : async () => favourites;
    const favouritesNeeded = query.favorite !== undefined || query.favoritesFirst;
    // Read only when the state filter needs them (one small GetItem).
    const [source, early, lifetimes] = await Promise.all([
      this.featuresOf(query), favouritesNeeded ? readFavourites() : undefined, query.state ? this.lifetimes() : ({} satisfies FeatureTypeLifetimes),
    ]);
    const starred = early ?? new Set<string>();
    const reads = new RequestReads(this.catalog, source.segmentsById);
    // What the feature alone answers first: the rest is read only for the features left.
    let matching = source.features.filter((feature) =>
      feature.archived === query.archived
      && matchesEquality(query.project, feature.project)
      && matchesEquality(query.type, feature.type)
      && matchesState(query.state, feature, now, lifetimes)
      && matchesEquality(query.lifecycle, currentStage(feature).stage)
      && matchesEquality(query.createdBy, feature.createdBy === undefined ? undefined : String(feature.createdBy.id))
      && (query.favorite?.includes(starred.has(feature.name)) ?? true)
      && matchesDate(query.createdAt, feature.createdAt)
      && matchesTerms(query.terms, feature)
      && matchesInclusion(query.tag, new Set(feature.tags.map((tag) => `${tag.type}:${tag.value}`))));
    if (query.segment !== undefined) {
      await reads.prepare(matching, { environments: false, segments: true });
      matching = matching.filter((feature) => matchesInclusion(query.segment, new Set(reads.segmentNamesOf(feature))));
    }
    if (query.status.length > 0 || query.sortBy.field === 'environment') {
      await reads.prepare(matching, { environments: true, segments: false });
      matching = matching.filter((feature) => matchesStatus(query, feature, reads.environmentsOf(feature.project)));
    }
    const needsAllLastSeen = query.lastSeenAt !== undefined || query.sortBy.field === 'lastSeenAt';
    const lastSeenAll = needsAllLastSeen && matching.length > 0
      ? await lastSeenOfPage(this.lastSeenReader, matching, await reads.environmentNames())
      : undefined;
    if (query.lastSeenAt !== undefined) {
      matching = matching.filter((feature) => matchesDate(query.lastSeenAt, lastSeenOf(lastSeenAll?.get(feature.name) ?? {})));
    }
    const facts = (feature: Feature): SearchFacts => ({
      environments: reads.environmentsOf(feature.project),
      lastSeen: lastSeenAll?.get(feature.name) ?? {},
      segmentNames: reads.segmentNamesOf(feature),
      now,
    });
    const byQuery = compareFor(query.sortBy, query.sortOrder, facts);
    matching.sort(query.favoritesFirst
      ? (a, b) => Number(starred.has(b.name)) - Number(starred.has(a.name)) || byQuery(a, b)
      : byQuery);
    const page = matching.slice(query.offset, query.offset + query.limit);

    const [, lastSeen, stars] = await Promise.all([
      reads.prepare(page, { environments: true, segments: true }),
      lastSeenAll ?? (page.length > 0 ? reads.environmentNames().then((names) => lastSeenOfPage(this.lastSeenReader, page, names)) : new Map<string, Record<string, string>>()),
      early ?? (page.length > 0 ? readFavourites() : starred),
    ]);
    return {
      total: matching.length,
      hits: page.map((feature) => ({
        feature,
        favorite: stars.has(feature.name),
        environments: reads.environmentsOf(feature.project),
        lastSeen: lastSeen.get(feature.name) ?? {},
        segmentNames: reads.segmentNamesOf(feature),
      })),
    };
  }

  /**
   * An IS or IS_ANY_OF project filter (the admin UI's project page) reads those projects the way
   * every project read does (`featuresOfProjects`); any other search reads the read model. From
   * the read model, the lifecycle stages SDK metrics wrote are laid over it (one Query of the
   * named projects' items, or of every project's the features name), so the list, its lifecycle
   * filter and the project status agree at once.
   */
  private async featuresOf(query: SearchQuery): Promise<{ features: readonly Feature[]; segmentsById?: ReadonlyMap<number, { name: string }> }> {
    const { project } = query;
    const named = project && (project.operator === 'IS' || project.operator === 'IS_ANY_OF') && project.values.length <= PROJECTS_READ_ONE_BY_ONE
      ? project.values
      : undefined;
    // A warm container reads the read model, and the named projects' metrics stages with it.
    const early = named && this.readModel.isWarm() ? this.readModel.metricsStagesOf?.(named) : undefined;
    const [read, earlyMarks] = await Promise.all([
      named ? featuresOfProjects({ readModel: this.readModel, store: this.store }, named) : this.readModel.everything(),
      early,
    ]);
    // Features read from the projects' own items hold every stage already.
    if (!read.segmentsById || !this.readModel.metricsStagesOf) return { features: read.features };
    const marks = earlyMarks ?? await this.readModel.metricsStagesOf(named ?? [...new Set(read.features.map((feature) => feature.project))]);
    return { features: withMetricsStages(read.features, marks), segmentsById: read.segmentsById };
  }
}

/** Up to this many projects in a project filter are read one by one; more, and every feature is read once. */
const PROJECTS_READ_ONE_BY_ONE = 10;

/**
 * Projects of at least this many active features are read from the read model on a cold
 * container (its stored snapshot, ADR 20, a fraction of a large project's items), which then
 * answers their next reads for a revision check; smaller projects stay cheaper read whole.
 */
export const WARM_AFTER_PROJECT_FEATURES = 250;

/** What a read of some projects' features chooses between. */
export interface ProjectFeatureSources {
  readModel: SearchReadModel;
  store: ProjectFeatureStore;
}

/** A project's own items (ADR 17), and its count of active features (ADR 14) to choose by. */
export interface ProjectFeatureStore {
  listProject(project: string): Promise<Feature[]>;
  /** The project's active features by its count; undefined when it has none (missing, or from before the counts). */
  activeFeatureCount?(project: string): Promise<number | undefined>;
}

/**
 * The features of some projects (archived ones too), as of every write acknowledged before the
 * call, for the search's project filter and the project pages alike. Once this process holds the
 * admin read model, from it: a revision check and what changed since. Before (a cold container),
 * the projects' counts decide: together at least WARM_AFTER_PROJECT_FEATURES, and the read
 * model is read (and kept warm for the next reads); fewer, and only the projects' own partitions
 * are read, so a cold read of a small project costs the same whatever the other projects hold.
 * When the projects' items turn out to be that many all the same (archived features, which the
 * counts leave out, or projects from before the counts), the read model is read after them. Features read from the read model (`segmentsById` with them) are every project's,
 * not filtered to the projects asked, and shared: they must not be changed.
 */
export async function featuresOfProjects(
  { readModel, store }: ProjectFeatureSources, projectIds: readonly string[],
): Promise<ProjectsRead> {
  if (readModel.isWarm()) return readModel.everything();
  const ids = [...new Set(projectIds)];
  const counts = store.activeFeatureCount ? await Promise.all(ids.map((id) => store.activeFeatureCount?.(id))) : ids.map(() => undefined);
  const known = counts.reduce<number>((sum, count) => sum + (count ?? 0), 0);
  if (known >= WARM_AFTER_PROJECT_FEATURES) return readModel.everything();
  const features = (await Promise.all(ids.map((id) => store.listProject(id)))).flat();
  return features.length >= WARM_AFTER_PROJECT_FEATURES ? { ...(await readModel.everything()), projectItems: features } : { features };
}

/** Some projects' features, as `featuresOfProjects` read them. */
export interface ProjectsRead {
  features: readonly Feature[];
  /** With features read from the read model (every project's). */
  segmentsById?: ReadonlyMap<number, { name: string }> | undefined;
  /** The projects' own items, when they were read before the read model answered. */
  projectItems?: readonly Feature[];
}

function matchesStatus(query: SearchQuery, feature: Feature, environments: Environment[]): boolean {
  if (query.status.length === 0) return true;
  return query.status.some(({ environment, enabled }) => enabledIn(feature, environment, environments) === enabled);
}

/**
 * Environments per project and segment names per id, each read once per request, only when
 * needed: every environment in one Query and each project met by key; segment names from the read
 * model when it answered the features, else each segment met by key.
 */
class RequestReads {
  private readonly projects = new Map<string, Project | undefined>();
  private readonly projectEnvironments = new Map<string, Environment[]>();
  private readonly segmentNames = new Map<number, string | undefined>();
  private every: Promise<Environment[]> | undefined;

  constructor(
    private readonly catalog: FeatureCatalog,
    private readonly segmentsById: ReadonlyMap<number, { name: string }> | undefined,
  ) {}

  /** Every environment, in sort order: one Query, at most once a request. */
  private allEnvironments(): Promise<Environment[]> {
    this.every ??= this.catalog.allEnvironments();
    return this.every;
  }

  /** The names of every environment: where SDKs may have seen a feature. */
  async environmentNames(): Promise<string[]> {
    return (await this.allEnvironments()).map((environment) => environment.name);
  }

  async prepare(features: Feature[], what: { environments: boolean; segments: boolean }): Promise<void> {
    const projects = what.environments ? [...new Set(features.map((f) => f.project))].filter((p) => !this.projects.has(p)) : [];
    const segments = what.segments && !this.segmentsById
      ? [...new Set(features.flatMap((f) => [...segmentIdsOf(f)]))].filter((id) => !this.segmentNames.has(id))
      : [];
    const [environments] = await Promise.all([
      projects.length > 0 ? this.allEnvironments() : [],
      ...projects.map(async (id) => {
        // A feature whose project is gone still answers, with no environments.
        this.projects.set(id, await this.catalog.project(id).catch(() => undefined));
      }),
      ...segments.map(async (id) => this.segmentNames.set(id, (await this.catalog.segment(id))?.name)),
    ]);
    for (const id of projects) {
      const names = new Set(this.projects.get(id)?.environments ?? []);
      this.projectEnvironments.set(id, environments.filter((environment) => names.has(environment.name)));
    }
  }

  /** The project's environments, in sort order; none for a project gone or not prepared. */
  environmentsOf(projectId: string): Environment[] {
    return this.projectEnvironments.get(projectId) ?? [];
  }

  segmentNamesOf(feature: Feature): string[] {
    const nameOf = (id: number) => (this.segmentsById ? this.segmentsById.get(id)?.name : this.segmentNames.get(id));
    return [...segmentIdsOf(feature)].map(nameOf).filter((name): name is string => name !== undefined);
  }
}
