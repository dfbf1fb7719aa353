import { unleashEventCount } from '../../events/wire.js';
import { stagesOf } from '../../features/rules/lifecycle.js';
import type { ProjectStatusPorts } from '../../project-status/ports.js';
import { projectStatusSlice } from '../../project-status/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore } from '../edge.js';
import { clientApplicationStore, eventStore, segmentStore } from '../stores.js';
import { projectOf } from './catalog-reads.js';
import { projectFeaturesOf, projectFeaturesWithMetricsStagesOf } from './project-features.js';

/** The project status slice, once per composition, on its ports. */
export const projectStatus = (c: Composition) => projectStatusSlice(c, projectStatusPorts(c));

/**
 * What a project's status reads: the project (one GetItem), its flags from its own partition
 * (ADR 17) with their recorded lifecycle stages (the flag creators from the admin read model
 * once the container holds it), the change events of the year by month (the
 * event log's own partitions, filtered to the project), and the tokens, segments and SDK
 * registrations, each a Query of its small collection.
 */
function projectStatusPorts(c: Composition): ProjectStatusPorts {
  return {
    ensureProject: async (projectId) => {
      await projectOf(c, projectId);
    },
    projectFeatures: (projectId) => projectFeaturesOf(c, projectId),
    projectFeaturesWithMetricsStages: (projectId) => projectFeaturesWithMetricsStagesOf(c, projectId),
    stagesOf,
    projectEventTimes: async (projectId, from, to) => {
      const times: string[] = [];
      for (const event of await c.once(eventStore).between(from, to)) {
        if (event.project !== projectId) continue;
        for (let action = unleashEventCount(event); action > 0; action -= 1) times.push(event.createdAt);
      }
      return times;
    },
    projectApiTokenCount: async (projectId) => (await c.once(apiTokenStore).list()).filter((token) => token.projects.includes(projectId)).length,
    projectSegmentCount: async (projectId) => (await c.once(segmentStore).list()).filter((segment) => segment.project === projectId).length,
    registeredApplications: () => c.once(clientApplicationStore).list(c.now?.() ?? new Date()),
  };
}
