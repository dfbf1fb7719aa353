import { lastSeenOfMany } from '../../features/views.js';
import type { ProjectPorts } from '../../projects/ports.js';
import { projectSlice } from '../../projects/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { metricsStore } from '../stores.js';
import { strategyTypeExists } from './catalog-reads.js';
import { favourites } from './favourites.js';
import { projectFeaturesOf, projectFeaturesWithMetricsStagesOf } from './project-features.js';
import { insights } from './insights.js';

/** The projects' slice, once per composition, on its ports. */
export const projects = (c: Composition) => projectSlice(c, projectPorts(c));

/** What projects read: every feature from the admin read model, one project's from its own partition, SDKs' last-seen times, whether a strategy type exists, and the insights' project figures. */
function projectPorts(c: Composition): ProjectPorts {
  const lastSeen = c.once(metricsStore);
  return {
    features: {
      everyFeature: () => c.once(featureReadModel).everyFeature(),
      projectFeatures: (projectId) => projectFeaturesOf(c, projectId),
      projectFeaturesWithMetricsStages: (projectId) => projectFeaturesWithMetricsStagesOf(c, projectId),
    },
    strategyTypeExists: (name) => strategyTypeExists(c, name),
    lastSeen,
    lastSeenOf: (features) => lastSeenOfMany(lastSeen, features),
    projectStats: (projectId, features) => c.once(insights).projectStats.forProject(projectId, features),
    favouriteProjectsOf: async (caller) => (await c.once(favourites).favourites.of(caller)).projects,
  };
}
