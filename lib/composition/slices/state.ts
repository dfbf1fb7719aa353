import { byName } from '../../features/rules/order.js';
import { activeFeatureCountOf, projectSummaries } from '../../projects/summaries.js';
import type { StateCatalog } from '../../state/ports.js';
import { stateSlice } from '../../state/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore } from '../edge.js';
import { featureReadModel } from '../read-model.js';
import { eventStore, projectStore, segmentStore, tagTypeStore } from '../stores.js';
import { sortedEnvironments } from './catalog-reads.js';
import { strategies } from './strategies.js';

/** The state export's slice, once per composition, on its ports. */
export const state = (c: Composition) => stateSlice(c, statePorts(c));

/**
 * What the state export reads, from the stores themselves: every feature from the admin read
 * model, the active ones counted from the projects' count shards (ADR 14), and the strategy types
 * from their service, which adds the built-in ones to those stored.
 */
function statePorts(c: Composition): StateCatalog {
  return {
    // By name in byte order, as the feature store lists them: the read model keeps features in the
    // order they last changed, and an export diffed against the last one should not churn.
    allFeatures: async () => [...await c.once(featureReadModel).everyFeature()].sort(byName),
    activeFeatureCount: async () => activeFeatureCountOf(await c.once(projectStore).list()),
    strategyTypes: () => c.once(strategies).strategyTypes.list(),
    projects: async (features) => projectSummaries(await c.once(projectStore).list(), features, new Date()),
    tagTypes: async () => (await c.once(tagTypeStore).list()).sort((a, b) => a.name.localeCompare(b.name)),
    environments: () => sortedEnvironments(c),
    apiTokens: () => c.once(apiTokenStore).list(),
    segments: () => c.once(segmentStore).list(),
    eventsBetween: (from, to) => c.once(eventStore).between(from, to),
  };
}
