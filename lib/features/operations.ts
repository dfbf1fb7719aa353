import { ValidationFailed } from '../errors.js';
import type { OperationsFor } from '../http/operation.js';
import type { featureEnvironmentRoutes } from './environment-routes.js';
import type { Feature } from './model.js';
import type { featureRelationRoutes } from './relation-routes.js';
import type { featureRoutes } from './routes.js';
import type { FeatureServices } from './slice.js';
import type { featureUsageRoutes } from './usage-routes.js';
import type { featureValidationRoutes } from './validation-routes.js';
import type { FeatureViews } from './views.js';
import { toFeatureWire, toProjectFeatureItemWire, toStrategyWire } from './wire.js';

/**
 * A feature as the feature endpoints show it, with its environments' views and last-seen time.
 * For a write, the view's context is read before the write: once a change is stored nothing may
 * fail, or the client would be told "try again" about a change that was made.
 */
function featureWire(views: FeatureViews) {
  return {
    read: async (feature: Feature) => toFeatureWire(feature, await views.contextFor(feature.project, feature.name)),
    written: async (projectId: string, featureName: string, write: () => Promise<Feature>) => {
      const context = await views.contextFor(projectId, featureName);
      return toFeatureWire(await write(), context);
    },
  };
}

/** A feature's life (routes.ts): create, clone, read, describe, patch, mark stale, archive, revive, delete. */
export const featureOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureRoutes> => {
  const { lifecycle, views, people } = features;
  const wire = featureWire(views);
  const wireList = async (list: Feature[]) => {
    const contexts = await views.contextsFor(list);
    return list.map((feature, index) => toFeatureWire(feature, contexts[index] as (typeof contexts)[number]));
  };

  return {
    listProjectFeatures: async ({ params, query }) => {
      const { features: list } = await lifecycle.listProject(params.projectId);
      const selected = list.filter(matchesListQuery(query)).sort((a, b) => a.name.localeCompare(b.name));
      const contexts = await views.contextsFor(selected);
      return { body: { version: 2, features: selected.map((f, i) => toProjectFeatureItemWire(f, contexts[i] as (typeof contexts)[number])) } };
    },
    createFeature: async ({ params, body, caller }) => ({
      body: await wire.written(params.projectId, body.name, async () =>
        lifecycle.create(params.projectId, body, caller.tokenName, await people.creatorOf(caller))),
    }),
    cloneFeature: async ({ params, body, caller }) => ({
      body: await wire.written(params.projectId, body.name, async () =>
        lifecycle.clone(params.projectId, params.featureName, body, caller.tokenName, await people.creatorOf(caller))),
    }),
    getFeature: async ({ params, caller }) => {
      // The view's context (the project's environments, the last-seen times) is read alongside the
      // feature rather than after it, so the flag page waits for the reads of the context alone; a
      // feature that is not in the project still answers the feature's own 404.
      const context = views.contextFor(params.projectId, params.featureName);
      context.catch(() => undefined);
      const [feature, favourites] = await Promise.all([lifecycle.get(params.projectId, params.featureName), people.favouriteFeaturesOf(caller)]);
      return { body: { ...toFeatureWire(feature, await context), favorite: favourites.has(feature.name) } };
    },
    updateFeature: async ({ params, body, caller }) => {
      if (body.name !== undefined && body.name !== params.featureName) {
        throw new ValidationFailed(`name: must match the feature in the path (${params.featureName})`);
      }
      if (body.archived !== undefined) {
        throw new ValidationFailed('archived: archive or revive a feature with its own endpoints');
      }
      return {
        body: await wire.written(params.projectId, params.featureName, () =>
          lifecycle.update(params.projectId, params.featureName, body, caller.tokenName)),
      };
    },
    patchFeature: async ({ params, body, caller }) => ({
      body: await wire.written(params.projectId, params.featureName, () =>
        lifecycle.patch(params.projectId, params.featureName, body, caller.tokenName)),
    }),
    archiveFeature: async ({ params, caller }) => {
      await lifecycle.get(params.projectId, params.featureName);
      await lifecycle.archive(params.projectId, [params.featureName], caller.tokenName);
      return {};
    },
    markFeaturesStale: async ({ params, body, caller }) => {
      await lifecycle.markStale(params.projectId, body.features, body.stale, caller.tokenName);
      return {};
    },
    archiveFeatures: async ({ params, body, caller }) => {
      await lifecycle.archive(params.projectId, body.features, caller.tokenName);
      return {};
    },
    reviveFeatures: async ({ params, body, caller }) => {
      await lifecycle.reviveMany(params.projectId, body.features, caller.tokenName);
      return {};
    },
    deleteArchivedFeatures: async ({ params, body, caller }) => {
      await lifecycle.deleteArchivedMany(params.projectId, body.features, caller.tokenName);
      return {};
    },
    listAllFeatures: async () => ({ body: { version: 1, features: await wireList(sortByName(await lifecycle.listActive())) } }),
    listArchivedFeatures: async ({ query }) => ({
      body: { version: 1, features: await wireList(sortByName(await lifecycle.listArchived(query.project))) },
    }),
    listFeatureTypes: async () => ({ body: { version: 1, types: await features.featureTypes.list() } }),
    updateFeatureTypeLifetime: async ({ params, body, caller }) => ({
      body: await features.featureTypes.setLifetime(params.type, body.lifetimeDays, caller.tokenName),
    }),
    reviveFeature: async ({ params, caller }) => {
      await lifecycle.revive(params.featureName, caller.tokenName);
      return {};
    },
    deleteArchivedFeature: async ({ params, caller }) => {
      await lifecycle.deleteArchived(params.featureName, caller.tokenName);
      return {};
    },
  };
};

/** A feature in one environment (environment-routes.ts): strategies, on and off, variants. */
export const featureEnvironmentOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureEnvironmentRoutes> => {
  const { strategies, variants, views } = features;
  const wire = featureWire(views);
  const envRef = (params: { projectId: string; featureName: string; environment: string }) => params;

  return {
    getFeatureEnvironment: async ({ params }) => {
      const { enabled, strategies: inOrder } = await strategies.environment(envRef(params));
      return {
        body: {
          name: params.featureName, environment: params.environment, enabled,
          strategies: inOrder.map((s) => toStrategyWire(params.featureName, s)),
        },
      };
    },
    listStrategies: async ({ params }) => ({
      body: (await strategies.list(envRef(params))).map((s) => toStrategyWire(params.featureName, s)),
    }),
    addStrategy: async ({ params, body, caller }) => ({
      body: toStrategyWire(params.featureName, await strategies.add(envRef(params), body, caller.tokenName)),
    }),
    getStrategy: async ({ params }) => ({
      body: toStrategyWire(params.featureName, await strategies.get(envRef(params), params.strategyId)),
    }),
    updateStrategy: async ({ params, body, caller }) => ({
      body: toStrategyWire(params.featureName, await strategies.update(envRef(params), params.strategyId, body, caller.tokenName)),
    }),
    deleteStrategy: async ({ params, caller }) => {
      await strategies.remove(envRef(params), params.strategyId, caller.tokenName);
      return {};
    },
    setStrategySortOrder: async ({ params, body, caller }) => {
      await strategies.setSortOrder(envRef(params), body, caller.tokenName);
      return {};
    },
    enableFeatureEnvironment: async ({ params, caller }) => ({
      body: await wire.written(params.projectId, params.featureName, () => strategies.turnOn(envRef(params), caller.tokenName)),
    }),
    disableFeatureEnvironment: async ({ params, caller }) => ({
      body: await wire.written(params.projectId, params.featureName, () => strategies.turnOff(envRef(params), caller.tokenName)),
    }),
    getEnvironmentVariants: async ({ params }) => ({ body: { version: 1, variants: await variants.get(envRef(params)) } }),
    replaceEnvironmentVariants: async ({ params, body, caller }) => ({
      body: { version: 1, variants: await variants.replace(envRef(params), body, caller.tokenName) },
    }),
    patchEnvironmentVariants: async ({ params, body, caller }) => ({
      body: { version: 1, variants: await variants.patch(envRef(params), body, caller.tokenName) },
    }),
    replaceVariantsInEnvironments: async ({ params, body, caller }) => ({
      body: {
        version: 1,
        variants: await variants.replaceInEnvironments(params.projectId, params.featureName, body.environments, body.variants, caller.tokenName),
      },
    }),
    patchVariantsAllEnvironments: async ({ params, body, caller }) => ({
      body: { version: 1, variants: await variants.patchAllEnvironments(params.projectId, params.featureName, body, caller.tokenName) },
    }),
  };
};

/** What a feature relates to (relation-routes.ts): the features it depends on, its tags. */
export const featureRelationOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureRelationRoutes> => {
  const { relations } = features;
  return {
    addDependency: async ({ params, body, caller }) => ({
      body: await relations.addDependency(params.projectId, params.featureName, body, caller.tokenName),
    }),
    deleteDependency: async ({ params, caller }) => {
      await relations.removeDependency(params.projectId, params.featureName, params.parentName, caller.tokenName);
      return {};
    },
    deleteDependencies: async ({ params, caller }) => {
      await relations.removeDependency(params.projectId, params.featureName, undefined, caller.tokenName);
      return {};
    },
    listParentOptions: async ({ params }) => ({ body: await relations.parentOptions(params.projectId, params.featureName) }),
    listParentVariantOptions: async ({ params }) => ({
      body: await relations.parentVariantOptions(params.projectId, params.featureName),
    }),
    checkDependenciesExist: async ({ params }) => ({ body: await relations.projectHasDependencies(params.projectId) }),
    listFeatureTags: async ({ params }) => ({ body: { version: 1, tags: await relations.tags(params.featureName) } }),
    addFeatureTag: async ({ params, body, caller }) => {
      await relations.changeTags(params.featureName, [body], [], caller.tokenName);
      return { body: { value: body.value, type: body.type }, headers: { location: tagsLocation(params.featureName) } };
    },
    updateFeatureTags: async ({ params, body, caller }) => ({
      body: { version: 1, tags: await relations.changeTags(params.featureName, body.addedTags, body.removedTags, caller.tokenName) },
      headers: { location: tagsLocation(params.featureName) },
    }),
    deleteFeatureTag: async ({ params, caller }) => {
      await relations.changeTags(params.featureName, [], [{ type: params.type, value: params.value }], caller.tokenName);
      return {};
    },
  };
};

/** The checks the UI makes before it saves (validation-routes.ts); none of them writes. */
export const featureValidationOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureValidationRoutes> => ({
  validateFeatureName: async ({ body }) => {
    await features.lifecycle.checkNewName(body.name, body.projectId);
    return {};
  },
  validateConstraint: async ({ body }) => {
    await features.strategies.checkConstraint(body);
    return {};
  },
  validateArchiveFeatures: async ({ body }) => ({ body: await features.lifecycle.archiveImpact(body.features) }),
});

/** A feature's SDK usage (usage-routes.ts). */
export const featureUsageOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureUsageRoutes> => ({
  getFeatureUsageSummary: async ({ params }) => ({
    body: { version: 1, maturity: 'stable', featureName: params.featureName, ...(await features.usage.lastHour(params.featureName)) },
  }),
  getRawFeatureMetrics: async ({ params, query }) => ({
    body: { version: 1, maturity: 'stable', data: await features.usage.hourly(params.featureName, query.hoursBack) },
  }),
});

const tagsLocation = (featureName: string) => `/api/admin/features/${encodeURIComponent(featureName)}/tags`;

const sortByName = (list: Feature[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));

/** `namePrefix` (case-insensitive, as Unleash's admin list) and `tag=type:value` (any of several). */
function matchesListQuery(query: Record<string, string | undefined>) {
  const prefix = query.namePrefix?.toLowerCase();
  const tags = query.tag ? query.tag.split(',').filter(Boolean) : [];
  return (feature: Feature) =>
    (!prefix || feature.name.toLowerCase().startsWith(prefix)) &&
    (tags.length === 0 || feature.tags.some((tag) => tags.includes(`${tag.type}:${tag.value}`)));
}
