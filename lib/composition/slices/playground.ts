import { featuresOfProjects } from '../../features/search-service.js';
import { activeFeatureCountOf } from '../../projects/summaries.js';
import { playgroundSlice } from '../../playground/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { featureStore, projectStore, segmentStore } from '../stores.js';

/** The playground's slice, once per composition, on its ports. */
export const playground = (c: Composition) => playgroundSlice(c, {
  // As the feature search and the project pages read projects: a warm container's read model costs a revision check.
  projectsFeatures: async (projectIds) => (await featuresOfProjects({ readModel: c.once(featureReadModel), store: c.once(featureStore) }, projectIds)).features,
  everyFeature: () => c.once(featureReadModel).everyFeature(),
  // Counted from the projects' count shards (ADR 14), so a request past the limit is refused before any flag is read.
  activeFeatureCount: async () => activeFeatureCountOf(await c.once(projectStore).list()),
  segments: () => c.once(segmentStore).list(),
});
