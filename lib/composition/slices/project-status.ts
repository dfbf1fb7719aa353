import { stagesOf } from '../../features/rules/lifecycle.js';
import { ProjectActivity } from '../../insights/project-activity.js';
import type { ProjectStatusPorts } from '../../project-status/ports.js';
import { projectStatusSlice } from '../../project-status/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore } from '../edge.js';
import { clientApplicationStore, eventStore, segmentStore } from '../stores.js';
import { projectOf } from './catalog-reads.js';
import { projectFeaturesOf, projectFeaturesWithMetricsStagesOf } from './project-features.js';

/**
 * Every project's change events of the status's year, counted once per container: a visit then
 * counts the events of the last minutes and the days of the year that have events.
 */
const statusActivity = (c: Composition) => new ProjectActivity({
  between: (from, to) => c.once(eventStore).between(from, to),
  lateCommitsFound: () => c.once(eventStore).lateCommitsFound(),
}, c.now);

/** The project status slice, once per composition, on its ports. */
export const projectStatus = (c: Composition) => projectStatusSlice(c, projectStatusPorts(c));

/**
 * What a project's status reads: the project (one GetItem), its flags with the lifecycle stages
 * SDK metrics wrote (the admin read model and the project's metrics-stage items once the
 * container holds it, else its own partition, ADR 17), the change events of the year counted by
 * day (read by time as the event log keeps them, only what is newer than what the container
 * counted), and the tokens, segments and SDK registrations, each a Query of its small collection.
 */
function projectStatusPorts(c: Composition): ProjectStatusPorts {
  return {
    ensureProject: async (projectId) => {
      await projectOf(c, projectId);
    },
    projectFeatures: (projectId) => projectFeaturesOf(c, projectId),
    projectFeaturesWithMetricsStages: (projectId) => projectFeaturesWithMetricsStagesOf(c, projectId),
    stagesOf,
    projectActivityByDate: async (projectId, from, to) => (await c.once(statusActivity).of(projectId, from, to)).actionsByDay(from.getTime(), to.getTime()),
    projectApiTokenCount: async (projectId) => (await c.once(apiTokenStore).list()).filter((token) => token.projects.includes(projectId)).length,
    projectSegmentCount: async (projectId) => (await c.once(segmentStore).list()).filter((segment) => segment.project === projectId).length,
    registeredApplications: () => c.once(clientApplicationStore).list(c.now?.() ?? new Date()),
  };
}
