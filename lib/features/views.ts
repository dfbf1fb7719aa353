import type { Environment } from '../environments/model.js';
import type { Feature, FeatureViewContext } from './model.js';
import type { LifecycleStage } from './rules/lifecycle.js';
import type { FeatureCatalog, LastSeenReader } from './ports.js';

/** Gathers view contexts, reading each project's environments once per call. */
export class FeatureViews {
  constructor(
    private readonly catalog: FeatureCatalog,
    private readonly lastSeen: LastSeenReader,
  ) {}

  /**
   * The context of one feature of `projectId` (NotFound when the project is missing). The
   * project, every environment and the last-seen times are read at once, one round of reads
   * (the flag page waits for it), and the environments kept are the project's, in sort order.
   */
  async contextFor(projectId: string, featureName: string): Promise<FeatureViewContext> {
    const [project, all, lastSeen] = await Promise.all([
      this.catalog.project(projectId),
      this.catalog.allEnvironments(),
      this.lastSeen.forFeature(featureName),
    ]);
    const used = new Set(project.environments);
    return { environments: all.filter((environment) => used.has(environment.name)), lastSeen };
  }

  /** Contexts for many features at once (lists), in the features' order. */
  async contextsFor(features: Feature[]): Promise<FeatureViewContext[]> {
    const lastSeen = features.length > 0 ? await lastSeenOfMany(this.lastSeen, features) : new Map<string, Record<string, string>>();
    const environmentsByProject = new Map<string, Promise<Environment[]>>();
    const environmentsOf = (projectId: string) => {
      let pending = environmentsByProject.get(projectId);
      if (!pending) {
        pending = this.catalog.project(projectId).then(
          (project) => this.catalog.environmentsOf(project),
          () => [] as Environment[],
        );
        environmentsByProject.set(projectId, pending);
      }
      return pending;
    };
    return Promise.all(
      features.map(async (feature) => ({
        environments: await environmentsOf(feature.project),
        lastSeen: lastSeen.get(feature.name) ?? {},
      })),
    );
  }
}

/** Features whose last-seen times are read one by one; above, every last-seen item is read once. */
const LAST_SEEN_ONE_BY_ONE = 100;

/**
 * The last-seen times of these features: one small Query each for a few (reading only what is
 * answered), one Query of every last-seen item for many (fewer requests and read units then).
 */
export async function lastSeenOfMany(reader: LastSeenReader, features: readonly Feature[]): Promise<Map<string, Record<string, string>>> {
  if (features.length > LAST_SEEN_ONE_BY_ONE) return reader.forAll();
  return new Map(await Promise.all(features.map(async (f) => [f.name, await reader.forFeature(f.name)] as const)));
}

/** Last-seen items read by key at most: three BatchGetItems (100 keys each) sent at once. */
const LAST_SEEN_KEYS_BY_KEY = 300;

/**
 * The last-seen times of these features in every environment: by key (feature × environment)
 * when that is a few BatchGetItems, which is a search page's case (one request instead of a Query
 * per feature); else one Query of every last-seen item.
 */
export async function lastSeenOfPage(
  reader: LastSeenReader, features: readonly Feature[], environments: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  if (features.length === 0) return new Map();
  if (features.length * environments.length <= LAST_SEEN_KEYS_BY_KEY) {
    return reader.forFeatures(features.map((feature) => feature.name), environments);
  }
  // Only the environments that exist, as the read by key sees: a last-seen item left by a deleted
  // environment must not count towards a flag's lastSeenAt on a large page and not on a small one.
  const existing = new Set(environments);
  const every = await reader.forAll();
  return new Map([...every].map(([name, times]) => [name, Object.fromEntries(Object.entries(times).filter(([env]) => existing.has(env)))]));
}

/** The stages SDK metrics last wrote on a flag, and the flag's version that write gave it (lib/features/dynamo-metrics-stages.ts). */
export interface MetricsStageMark {
  /** The project whose partition holds the item: the flag's when metrics moved it. */
  project: string;
  lifecycle: LifecycleStage[];
  version: number;
  /** The flag's creation time. */
  createdAt: string;
}

/**
 * `features` with the stages metrics wrote since each was read: a flag whose item is newer than
 * the same flag (a write that moved no revision) takes the item's stages and version. The
 * features given are not changed.
 */
export function withMetricsStages(features: readonly Feature[], marks: ReadonlyMap<string, MetricsStageMark>): readonly Feature[] {
  if (marks.size === 0) return features;
  return features.map((feature) => {
    const mark = marks.get(feature.name);
    return mark && mark.createdAt === feature.createdAt && mark.version > feature.version ? { ...feature, lifecycle: mark.lifecycle, version: mark.version } : feature;
  });
}

/** Several projects' items as one, by flag name: of two items of one flag (it moved project), the newer. */
export function mergedMarks(perProject: ReadonlyArray<ReadonlyMap<string, MetricsStageMark>>): Map<string, MetricsStageMark> {
  const merged = new Map<string, MetricsStageMark>();
  for (const marks of perProject) {
    for (const [name, mark] of marks) {
      const known = merged.get(name);
      if (!known || mark.version > known.version) merged.set(name, mark);
    }
  }
  return merged;
}

/**
 * The items `features` (read from the admin read model as of a revision read) have passed: the
 * same flag at a newer version, which only a change that moved the revision writes, so every
 * later read of the read model holds the stages without the item. An item of a flag missing
 * from `features` is kept: it may belong to a flag created after the revision read.
 */
export function passedMarks(features: readonly Feature[], marks: ReadonlyMap<string, MetricsStageMark>): Array<{ name: string; mark: MetricsStageMark }> {
  if (marks.size === 0) return [];
  const passed: Array<{ name: string; mark: MetricsStageMark }> = [];
  for (const feature of features) {
    const mark = marks.get(feature.name);
    if (mark && mark.createdAt === feature.createdAt && feature.version > mark.version) passed.push({ name: feature.name, mark });
  }
  return passed;
}
