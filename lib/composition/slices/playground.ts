import { activeFeatureCountOf } from '../../projects/summaries.js';
import { playgroundSlice } from '../../playground/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { featureStore, projectStore, segmentStore } from '../stores.js';

/** The playground's slice, once per composition, on its ports. */
export const playground = (c: Composition) => playgroundSlice(c, {
  projectFeatures: (projectId) => c.once(featureStore).listProject(projectId),
  everyFeature: () => c.once(featureReadModel).everyFeature(),
  // Counted from the projects' count shards (ADR 14), so a request past the limit is refused before any flag is read.
  activeFeatureCount: async () => activeFeatureCountOf(await c.once(projectStore).list()),
  segments: () => c.once(segmentStore).list(),
});
