import { route, type RouteSpec } from '../route-types.js';
import { featureSchema, featureStrategySchema, strategyInputSchema, strategyListSchema, variantsResponseSchema } from '../schemas/features.js';
import { patchSchema } from '../schemas/json-patch.js';
import { variantListSchema } from '../schemas/variants.js';

const ENV = '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}';
const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** A feature in one environment: strategies, on/off, variants; and E12 across environments. */
export const featureEnvironmentRoutes = {
  listStrategies: route({
    method: 'GET', path: `${ENV}/strategies`, group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: "List a feature's strategies in an environment", response: strategyListSchema,
  }),
  addStrategy: route({
    method: 'POST', path: `${ENV}/strategies`, group: 'features', access: admin('CREATE_FEATURE_STRATEGY'), status: 200,
    summary: 'Add a strategy to a feature in an environment', body: strategyInputSchema, response: featureStrategySchema,
  }),
  getStrategy: route({
    method: 'GET', path: `${ENV}/strategies/{strategyId}`, group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'Get one strategy', response: featureStrategySchema,
  }),
  updateStrategy: route({
    method: 'PUT', path: `${ENV}/strategies/{strategyId}`, group: 'features', access: admin('UPDATE_FEATURE_STRATEGY'),
    status: 200, summary: 'Replace a strategy', body: strategyInputSchema, response: featureStrategySchema,
  }),
  deleteStrategy: route({
    method: 'DELETE', path: `${ENV}/strategies/{strategyId}`, group: 'features', access: admin('DELETE_FEATURE_STRATEGY'),
    status: 200, summary: 'Delete a strategy (the environment goes off when no active strategy remains)',
  }),
  enableFeatureEnvironment: route({
    method: 'POST', path: `${ENV}/on`, group: 'features', access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'E7. Enable a feature in an environment', response: featureSchema,
  }),
  disableFeatureEnvironment: route({
    method: 'POST', path: `${ENV}/off`, group: 'features', access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'Disable a feature in an environment', response: featureSchema,
  }),
  getEnvironmentVariants: route({
    method: 'GET', path: `${ENV}/variants`, group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: "Get a feature's variants in an environment", response: variantsResponseSchema,
  }),
  replaceEnvironmentVariants: route({
    method: 'PUT', path: `${ENV}/variants`, group: 'features', access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "Replace a feature's variants in an environment", body: variantListSchema, response: variantsResponseSchema,
  }),
  patchEnvironmentVariants: route({
    method: 'PATCH', path: `${ENV}/variants`, group: 'features', access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "Patch a feature's variants in an environment", body: patchSchema, response: variantsResponseSchema,
  }),
  patchVariantsAllEnvironments: route({
    method: 'PATCH', path: '/api/admin/projects/{projectId}/features/{featureName}/variants', group: 'features',
    access: admin('UPDATE_FEATURE_VARIANTS'), status: 200,
    summary: "E12. Patch a feature's variants in all environments", body: patchSchema, response: variantsResponseSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
