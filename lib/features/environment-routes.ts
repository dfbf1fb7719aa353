import { admin, defineRoutes } from '../http/route.js';
import {
  featureEnvironmentInfoSchema,
  featureSchema,
  featureStrategySchema,
  strategyInputSchema,
  strategyListSchema,
  strategySortOrderSchema,
  variantsResponseSchema,
} from './schemas.js';
import { patchSchema } from './json-patch.js';
import { variantListSchema, variantsInEnvironmentsSchema } from './variant-schemas.js';

const ENV = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}';

/** A feature in one environment: strategies, on/off, variants; and E12 across environments. */
export const featureEnvironmentRoutes = defineRoutes('features', {
  getFeatureEnvironment: {
    method: 'GET', path: ENV, access: admin('READ_FEATURE'), status: 200,
    summary: 'Get a feature in one environment: on or off, and its strategies in order', response: featureEnvironmentInfoSchema,
  },
  listStrategies: {
    method: 'GET', path: `${ENV}/strategies`, access: admin('READ_FEATURE'), status: 200,
    summary: "List a feature's strategies in an environment", response: strategyListSchema,
  },
  addStrategy: {
    method: 'POST', path: `${ENV}/strategies`, access: admin('CREATE_FEATURE_STRATEGY'), status: 200,
    summary: 'Add a strategy to a feature in an environment', body: strategyInputSchema, response: featureStrategySchema,
  },
  getStrategy: {
    method: 'GET', path: `${ENV}/strategies/{strategyId}`, access: admin('READ_FEATURE'), status: 200,
    summary: 'Get one strategy', response: featureStrategySchema,
  },
  updateStrategy: {
    method: 'PUT', path: `${ENV}/strategies/{strategyId}`, access: admin('UPDATE_FEATURE_STRATEGY'),
    status: 200, summary: 'Replace a strategy', body: strategyInputSchema, response: featureStrategySchema,
  },
  deleteStrategy: {
    method: 'DELETE', path: `${ENV}/strategies/{strategyId}`, access: admin('DELETE_FEATURE_STRATEGY'),
    status: 200, summary: 'Delete a strategy (the environment goes off when no active strategy remains)',
  },
  setStrategySortOrder: {
    method: 'POST', path: `${ENV}/strategies/set-sort-order`, access: admin('UPDATE_FEATURE_STRATEGY'), status: 200,
    summary: "Set the order of a feature's strategies in an environment", body: strategySortOrderSchema,
  },
  enableFeatureEnvironment: {
    method: 'POST', path: `${ENV}/on`, access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'E7. Enable a feature in an environment', response: featureSchema,
  },
  disableFeatureEnvironment: {
    method: 'POST', path: `${ENV}/off`, access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'Disable a feature in an environment', response: featureSchema,
  },
  getEnvironmentVariants: {
    method: 'GET', path: `${ENV}/variants`, access: admin('READ_FEATURE'), status: 200,
    summary: "Get a feature's variants in an environment", response: variantsResponseSchema,
  },
  replaceEnvironmentVariants: {
    method: 'PUT', path: `${ENV}/variants`, access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "Replace a feature's variants in an environment", body: variantListSchema, response: variantsResponseSchema,
  },
  patchEnvironmentVariants: {
    method: 'PATCH', path: `${ENV}/variants`, access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "Patch a feature's variants in an environment", body: patchSchema, response: variantsResponseSchema,
  },
  replaceVariantsInEnvironments: {
    method: 'PUT', path: '/api/admin/projects/{projectId}/features/{featureName}/variants-batch',
    access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "Replace a feature's variants in several environments at once", body: variantsInEnvironmentsSchema, response: variantsResponseSchema,
  },
  patchVariantsAllEnvironments: {
    method: 'PATCH', path: '/api/admin/projects/{projectId}/features/{featureName}/variants',
    access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "E12. Patch a feature's variants in all environments", body: patchSchema, response: variantsResponseSchema,
  },
});
