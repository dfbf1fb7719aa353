import type { OperationsFor } from '../http/operation.js';
import type { FeatureServices } from './slice.js';
import type { featureStageRoutes } from './stage-routes.js';

/** A flag's lifecycle stages, links and the flag table's bulk actions (stage-routes.ts). */
export const featureStageOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureStageRoutes> => {
  const { stages, links, bulk } = features;
  return {
    getFeatureLifecycle: async ({ params }) => ({
      body: (await stages.stages(params.projectId, params.featureName)).map(({ stage, status, enteredStageAt }) => ({
        stage, ...(status ? { status } : {}), enteredStageAt,
      })),
    }),
    completeFeature: async ({ params, body, caller }) => {
      await stages.complete(params.projectId, params.featureName, body, caller.tokenName);
      return {};
    },
    uncompleteFeature: async ({ params, caller }) => {
      await stages.uncomplete(params.projectId, params.featureName, caller.tokenName);
      return {};
    },
    getLifecycleCount: async () => {
      const { 'pre-live': preLive, ...rest } = await stages.counts();
      return { body: { ...rest, preLive } };
    },
    addFeatureLink: async ({ params, body, caller }) => {
      await links.add(params.projectId, params.featureName, body, caller.tokenName);
      return {};
    },
    updateFeatureLink: async ({ params, body, caller }) => {
      await links.update(params.projectId, params.featureName, params.linkId, body, caller.tokenName);
      return {};
    },
    deleteFeatureLink: async ({ params, caller }) => {
      await links.remove(params.projectId, params.featureName, params.linkId, caller.tokenName);
      return {};
    },
    bulkEnableFeatures: async ({ params, query, body, caller }) => {
      await bulk.switchEnvironment(params.projectId, body.features, params.environment, {
        enabled: true, activateDisabledStrategies: query.shouldActivateDisabledStrategies,
      }, caller.tokenName);
      return {};
    },
    bulkDisableFeatures: async ({ params, query, body, caller }) => {
      await bulk.switchEnvironment(params.projectId, body.features, params.environment, {
        enabled: false, activateDisabledStrategies: query.shouldActivateDisabledStrategies,
      }, caller.tokenName);
      return {};
    },
    bulkUpdateFeatureTags: async ({ params, body, caller }) => {
      await bulk.changeTags(params.projectId, body.features, body.tags.addedTags, body.tags.removedTags, caller.tokenName);
      return {};
    },
  };
};
