import { DynamoMetricsStageMarks } from '../../features/dynamo-metrics-stages.js';
import type { Feature } from '../../features/model.js';
import { featuresOfProjects } from '../../features/search-service.js';
import { mergedMarks, passedMarks, withMetricsStages, type MetricsStageMark } from '../../features/views.js';
import type { Composition } from '../composition.js';
import { log } from '../../log.js';
import { featureReadModel } from '../read-model.js';
import { featureStore } from '../stores.js';

/** The projects' metrics-stage items, once per composition. */
export const metricsStageMarks = (c: Composition) => new DynamoMetricsStageMarks(c.store.db, c.store.tableName);

/**
 * One project's features, archived ones too, in name order, as the project page, its status and
 * its statistics read them: from the admin read model once this process holds it (a revision
 * check and what changed since, where the project's partition is a thousand items, a megabyte or
 * more, read again on every visit), else as `featuresOfProjects` chooses for a cold container.
 * Both hold every write acknowledged before the call, except the lifecycle stages SDK metrics
 * write, which move no revision: the read model shows them from the next change, so a reader
 * that answers stages reads `projectFeaturesWithMetricsStagesOf`. The features may be the read
 * model's own: callers must not change them.
 */
export async function projectFeaturesOf(c: Composition, projectId: string): Promise<readonly Feature[]> {
  return (await projectRead(c, projectId)).features;
}

/**
 * The same with the lifecycle stages SDK metrics wrote, at once. Read from the project's own
 * partition, they are there; read from the read model, the project's metrics-stage items (one
 * Query of small items, read at the same time) are laid over it, and those the read model has
 * passed are deleted. A project whose items are not
 * complete yet (a table from before them) is read from its partition instead, and its items are
 * completed from what it holds, once.
 */
export async function projectFeaturesWithMetricsStagesOf(c: Composition, projectId: string): Promise<readonly Feature[]> {
  const marks = c.once(metricsStageMarks);
  // A warm container reads the read model: its items are read at the same time.
  const [read, early] = await Promise.all([projectRead(c, projectId), c.once(featureReadModel).isWarm() ? marks.of(projectId) : undefined]);
  if (!read.fromReadModel) return read.features;
  const recorded = early ?? await marks.of(projectId);
  if (recorded.complete) {
    await housekeeping('prune the metrics-stage items the read model has passed', marks.prune(passedMarks(read.features, recorded.marks)), { project: projectId });
    return withMetricsStages(read.features, recorded.marks);
  }
  const stored = read.projectItems ?? await c.once(featureStore).listProject(projectId);
  // Not completed, the project is read from its partition again next time, and completed then.
  await housekeeping('complete the metrics-stage items', marks.complete(projectId, stored), { project: projectId });
  return stored;
}

/**
 * Writes a read does to keep the metrics-stage items small and complete: the answer does not
 * depend on them (it is made from what was read), so a throttled, late or conflicting write is
 * logged and left to a later read instead of failing the page.
 */
async function housekeeping(what: string, writes: Promise<void>, context: Record<string, string> = {}): Promise<void> {
  try {
    await writes;
  } catch (error) {
    log.warn(`Could not ${what}; a later read tries again`, { ...context, error: String(error) });
  }
}

async function projectRead(c: Composition, projectId: string): Promise<{ features: readonly Feature[]; fromReadModel: boolean; projectItems?: readonly Feature[] | undefined }> {
  const read = await featuresOfProjects({ readModel: c.once(featureReadModel), store: c.once(featureStore) }, [projectId]);
  // Features read from the read model come with its segments, and are every project's.
  if (!read.segmentsById) return { features: read.features, fromReadModel: false };
  const { projectItems } = read;
  // The partition lists its items by key, `FEATURE#<name>`: the same order by name's code units.
  const features = read.features
    .filter((feature) => feature.project === projectId)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { features, fromReadModel: true, projectItems };
}

/** The metrics-stage items of these projects, by flag name: one Query each, a few at a time. */
export async function metricsStagesOf(c: Composition, projectIds: readonly string[]): Promise<ReadonlyMap<string, MetricsStageMark>> {
  return mergedMarks(await c.once(metricsStageMarks).ofMany(projectIds));
}

/**
 * Every feature of the admin read model with the stages SDK metrics wrote laid over it, as the
 * lifecycle counts read them: the projects' items are read after the read model names them.
 */
export async function everyFeatureWithMetricsStages(c: Composition): Promise<readonly Feature[]> {
  const features = await c.once(featureReadModel).everyFeature();
  const marks = await metricsStagesOf(c, [...new Set(features.map((feature) => feature.project))]);
  await housekeeping('prune the metrics-stage items the read model has passed', c.once(metricsStageMarks).prune(passedMarks(features, marks)));
  return withMetricsStages(features, marks);
}
