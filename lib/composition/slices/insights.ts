import type { InsightCatalog } from '../../insights/ports.js';
import { insightSlice } from '../../insights/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { userStore } from '../session-edge.js';
import { eventStore, metricsStore, projectStore } from '../stores.js';
import { sortedEnvironments } from './catalog-reads.js';
import { projectFeaturesOf } from './project-features.js';

/** The insights' slice, once per composition, on its ports. */
export const insights = (c: Composition) => insightSlice(c, insightPorts(c));

/**
 * What insights read, from the stores themselves: every feature from the admin read model, one
 * project's from its own partition (ADR 17), projects without their health, which no figure uses.
 */
export function insightPorts(c: Composition): InsightCatalog {
  return {
    users: () => c.once(userStore).list(),
    allFeatures: () => c.once(featureReadModel).everyFeature(),
    projectFeatures: (projectId) => projectFeaturesOf(c, projectId),
    projects: async () => (await c.once(projectStore).list())
      .map(({ project }) => project)
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id)),
    environments: () => sortedEnvironments(c),
    eventsBetween: (from, to) => c.once(eventStore).between(from, to),
    lateCommitsFound: () => c.once(eventStore).lateCommitsFound(),
    featureEventsBetween: (featureName, from, to) => c.once(eventStore).ofFeature(featureName, from, to),
    usage: (day) => c.once(metricsStore).hourlyCounts(day),
  };
}
