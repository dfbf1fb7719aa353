import type { FeatureCatalog, FeaturePeople, FeaturePorts } from '../../features/ports.js';
import { isUserCaller } from '../../http/caller.js';
import { creatorOfUser, TOKEN_CREATOR } from '../../favourites/people.js';
import { featureSlice } from '../../features/slice.js';
import type { Composition } from '../composition.js';
import { featureReadModel } from '../read-model.js';
import { contextFieldStore, featureStore, metricsStore, projectStore, segmentStore, tagTypeStore } from '../stores.js';
import { userReader } from '../session-edge.js';
import { projectOf, sortedEnvironments, strategyTypeExists } from './catalog-reads.js';
import { favourites } from './favourites.js';
import { everyFeatureWithMetricsStages, metricsStagesOf, projectFeaturesOf } from './project-features.js';

/** The feature slice, once per composition, on its ports. */
export const features = (c: Composition) => featureSlice(c, featurePorts(c), c.once(featureStore));

/** What features read: the catalogue from the adapters, SDKs' last-seen times and counters, and the admin read model. */
function featurePorts(c: Composition): FeaturePorts {
  return {
    catalog: featureCatalog(c),
    metrics: c.once(metricsStore),
    // The lifecycle counts: with the stages SDK metrics wrote, as the flag lists show them.
    everyFeature: () => everyFeatureWithMetricsStages(c),
    searchReadModel: {
      everything: () => c.once(featureReadModel).everything(),
      isWarm: () => c.once(featureReadModel).isWarm(),
      metricsStagesOf: (projectIds) => metricsStagesOf(c, projectIds),
    },
    people: featurePeople(c),
    projectFeatures: (projectId) => projectFeaturesOf(c, projectId),
  };
}

/** A flag's creator from the user behind the session (one GetItem, at creation only); a caller's stars from their own partition. */
function featurePeople(c: Composition): FeaturePeople {
  return {
    creatorOf: async (caller) => {
      if (!isUserCaller(caller)) return TOKEN_CREATOR;
      const user = await c.once(userReader).get(caller.userId);
      return user ? creatorOfUser(user) : { id: caller.userId, name: caller.tokenName, imageUrl: '' };
    },
    favouriteFeaturesOf: async (caller) => (await c.once(favourites).favourites.of(caller)).features,
  };
}

function featureCatalog(c: Composition): FeatureCatalog {
  return {
    project: (id) => projectOf(c, id),
    environmentsOf: async (project) => {
      const names = new Set(project.environments);
      return (await sortedEnvironments(c)).filter((environment) => names.has(environment.name));
    },
    allEnvironments: () => sortedEnvironments(c),
    strategyTypeExists: (name) => strategyTypeExists(c, name),
    segment: (id) => c.once(segmentStore).get(id),
    contextField: (name) => c.once(contextFieldStore).get(name),
    tagTypeExists: async (name) => (await c.once(tagTypeStore).get(name)) !== undefined,
    // The projects' stored counts, summed: no feature is read.
    activeFeatureCount: async () => (await c.once(projectStore).list()).reduce((sum, { featureCount }) => sum + featureCount, 0),
  };
}
