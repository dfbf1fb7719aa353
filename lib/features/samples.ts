import { defineSamples } from '../samples.js';
import { featureRoutes } from './routes.js';
import { featureEnvironmentRoutes } from './environment-routes.js';
import { featureRelationRoutes } from './relation-routes.js';
import { featureSearchRoutes } from './search-routes.js';
import { featureUsageRoutes } from './usage-routes.js';
import { featureValidationRoutes } from './validation-routes.js';
import { featureStageRoutes } from './stage-routes.js';

/** The feature most scenarios work on; `create-feature` makes it, `{{UNIQUE}}` per invocation. */
const FEATURE = 'sample-feature-{{UNIQUE}}';
const PARENT = 'sample-parent-{{UNIQUE}}';
const feature = { projectId: 'default', featureName: FEATURE };
const inDevelopment = { ...feature, environment: 'development' };
/** A strategy id no feature has. */
const unknownStrategy = { ...inDevelopment, strategyId: '00000000-0000-4000-8000-000000000000' };
const created = ['features/create-feature'];

const rows = { ...featureRoutes, ...featureEnvironmentRoutes, ...featureRelationRoutes, ...featureSearchRoutes, ...featureValidationRoutes, ...featureUsageRoutes, ...featureStageRoutes };

export const featureSamples = defineSamples(rows, {
  'create-feature': {
    operation: 'createFeature',
    params: { projectId: 'default' },
    body: { name: FEATURE, description: 'A sample feature', type: 'release' },
    status: 201,
  },
  'create-parent-feature': {
    operation: 'createFeature',
    params: { projectId: 'default' },
    body: { name: PARENT, type: 'release' },
    status: 201,
  },
  'list-project-features': {
    operation: 'listProjectFeatures',
    params: { projectId: 'default' },
    query: { namePrefix: 'sample' },
    status: 200,
    given: created,
  },
  'search-features': {
    operation: 'searchFeatures',
    query: { project: 'IS:default', query: 'sample', sortBy: 'name', sortOrder: 'asc', offset: '0', limit: '25' },
    status: 200,
    given: created,
  },
  'clone-feature': {
    operation: 'cloneFeature',
    params: feature,
    body: { name: 'sample-clone-{{UNIQUE}}', replaceGroupId: true },
    status: 201,
    given: ['features/add-strategy'],
  },
  'get-feature': { operation: 'getFeature', params: feature, status: 200, given: created },
  'update-feature': {
    operation: 'updateFeature',
    params: feature,
    body: { description: 'Updated', type: 'experiment', impressionData: true },
    status: 200,
    given: created,
  },
  'patch-feature': {
    operation: 'patchFeature',
    params: feature,
    body: [{ op: 'replace', path: '/description', value: 'Patched' }],
    status: 200,
    given: created,
  },
  'add-strategy': {
    operation: 'addStrategy',
    params: inDevelopment,
    body: {
      name: 'flexibleRollout',
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['alice', 'bob'] }],
      parameters: { rollout: '50', stickiness: 'default', groupId: FEATURE },
    },
    status: 200,
    given: created,
  },
  'get-feature-environment': {
    operation: 'getFeatureEnvironment',
    params: inDevelopment,
    status: 200,
    given: ['features/add-strategy'],
  },
  'list-strategies': {
    operation: 'listStrategies',
    params: inDevelopment,
    status: 200,
    given: ['features/add-strategy'],
  },
  'replace-variants-in-environments': {
    operation: 'replaceVariantsInEnvironments',
    params: feature,
    body: { variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }], environments: ['development', 'production'] },
    status: 200,
    given: created,
  },
  'set-strategy-sort-order': {
    operation: 'setStrategySortOrder',
    params: inDevelopment,
    body: [{ id: '00000000-0000-4000-8000-000000000000', sortOrder: 1 }],
    status: 404,
    given: created,
  },
  'get-strategy-unknown-id': { operation: 'getStrategy', params: unknownStrategy, status: 404, given: created },
  'update-strategy-unknown-id': {
    operation: 'updateStrategy',
    params: unknownStrategy,
    body: { name: 'default' },
    status: 404,
    given: created,
  },
  'delete-strategy-unknown-id': { operation: 'deleteStrategy', params: unknownStrategy, status: 404, given: created },
  'enable-in-development': {
    operation: 'enableFeatureEnvironment',
    params: inDevelopment,
    status: 200,
    given: ['features/add-strategy'],
  },
  'disable-in-development': {
    operation: 'disableFeatureEnvironment',
    params: inDevelopment,
    status: 200,
    given: ['features/enable-in-development'],
  },
  'put-environment-variants': {
    operation: 'replaceEnvironmentVariants',
    params: inDevelopment,
    body: [
      {
        name: 'blue',
        weightType: 'variable',
        weight: 0,
        stickiness: 'default',
        payload: { type: 'string', value: 'blue' },
      },
      { name: 'green', weightType: 'variable', weight: 0, stickiness: 'default' },
    ],
    status: 200,
    given: created,
  },
  'get-environment-variants': {
    operation: 'getEnvironmentVariants',
    params: inDevelopment,
    status: 200,
    given: ['features/put-environment-variants'],
  },
  'patch-environment-variants': {
    operation: 'patchEnvironmentVariants',
    params: inDevelopment,
    body: [
      {
        op: 'add',
        path: '/-',
        value: { name: 'red', weightType: 'variable', weight: 0, stickiness: 'default' },
      },
    ],
    status: 200,
    given: ['features/put-environment-variants'],
  },
  'patch-variants-all-environments': {
    operation: 'patchVariantsAllEnvironments',
    params: feature,
    body: [
      {
        op: 'add',
        path: '/-',
        value: { name: 'everywhere', weightType: 'variable', weight: 0, stickiness: 'default' },
      },
    ],
    status: 200,
    given: created,
  },
  'add-dependency': {
    operation: 'addDependency',
    params: feature,
    body: { feature: PARENT, enabled: true },
    status: 200,
    given: ['features/create-feature', 'features/create-parent-feature'],
  },
  'delete-dependency': {
    operation: 'deleteDependency',
    params: { ...feature, parentName: PARENT },
    status: 200,
    given: ['features/add-dependency'],
  },
  'delete-dependencies': {
    operation: 'deleteDependencies',
    params: feature,
    status: 200,
    given: ['features/add-dependency'],
  },
  'list-parent-options': {
    operation: 'listParentOptions',
    params: feature,
    status: 200,
    given: ['features/create-feature', 'features/create-parent-feature'],
  },
  'list-parent-variant-options': {
    operation: 'listParentVariantOptions',
    params: { projectId: 'default', featureName: PARENT },
    status: 200,
    given: ['features/create-parent-feature'],
  },
  'check-dependencies-exist': { operation: 'checkDependenciesExist', params: { projectId: 'default' }, status: 200 },
  'validate-feature-name': {
    operation: 'validateFeatureName',
    body: { name: 'sample-unused-{{UNIQUE}}', projectId: 'default' },
    status: 200,
  },
  'validate-constraint': {
    operation: 'validateConstraint',
    body: { contextName: 'appName', operator: 'IN', values: ['checkout'] },
    status: 204,
  },
  'validate-archive-features': {
    operation: 'validateArchiveFeatures',
    params: { projectId: 'default' },
    body: { features: [PARENT] },
    status: 200,
    given: ['features/add-dependency'],
  },
  'get-feature-usage': { operation: 'getFeatureUsageSummary', params: { featureName: FEATURE }, status: 200, given: created },
  'get-feature-hourly-usage': {
    operation: 'getRawFeatureMetrics',
    params: { featureName: FEATURE },
    query: { hoursBack: '48' },
    status: 200,
    given: created,
  },
  'add-tag': {
    operation: 'addFeatureTag',
    params: { featureName: FEATURE },
    body: { type: 'simple', value: 'checkout' },
    status: 201,
    given: created,
  },
  'list-tags': {
    operation: 'listFeatureTags',
    params: { featureName: FEATURE },
    status: 200,
    given: ['features/add-tag'],
  },
  'update-tags': {
    operation: 'updateFeatureTags',
    params: { featureName: FEATURE },
    body: {
      addedTags: [{ type: 'simple', value: 'payments' }],
      removedTags: [{ type: 'simple', value: 'checkout' }],
    },
    status: 201,
    given: ['features/add-tag'],
  },
  'delete-tag': {
    operation: 'deleteFeatureTag',
    params: { featureName: FEATURE, type: 'simple', value: 'payments' },
    status: 200,
    given: ['features/update-tags'],
  },
  'mark-stale': {
    operation: 'markFeaturesStale',
    params: { projectId: 'default' },
    body: { features: [FEATURE], stale: true },
    status: 202,
    given: created,
  },
  'list-all-features': { operation: 'listAllFeatures', status: 200 },
  'archive-features': {
    operation: 'archiveFeatures',
    params: { projectId: 'default' },
    body: { features: [FEATURE] },
    status: 202,
    given: created,
  },
  'list-archived-features': { operation: 'listArchivedFeatures', status: 200 },
  'revive-feature': {
    operation: 'reviveFeature',
    params: { featureName: FEATURE },
    status: 200,
    given: ['features/archive-features'],
  },
  'revive-features': {
    operation: 'reviveFeatures',
    params: { projectId: 'default' },
    body: { features: [FEATURE] },
    status: 200,
    given: ['features/archive-features'],
  },
  'delete-archived-features': {
    operation: 'deleteArchivedFeatures',
    params: { projectId: 'default' },
    body: { features: [FEATURE] },
    status: 200,
    given: ['features/archive-features'],
  },
  'archive-feature': { operation: 'archiveFeature', params: feature, status: 202, given: created },
  // Unleash's default for release flags, so running it changes nothing a fresh install would not have.
  'update-feature-type-lifetime': { operation: 'updateFeatureTypeLifetime', params: { type: 'release' }, body: { lifetimeDays: 40 }, status: 200 },
  'feature-lifecycle': { operation: 'getFeatureLifecycle', params: feature, status: 200, given: created },
  'complete-feature': {
    operation: 'completeFeature', params: feature, body: { status: 'kept', statusValue: 'on' }, status: 200, given: created,
  },
  'complete-feature-bad-status': { operation: 'completeFeature', params: feature, body: { status: 'done' }, status: 400, given: created },
  'uncomplete-feature': { operation: 'uncompleteFeature', params: feature, status: 200, given: ['features/complete-feature'] },
  'add-feature-link': {
    operation: 'addFeatureLink', params: feature, body: { url: 'github.com/acme/shop/issues/1', title: 'Rollout issue' }, status: 204, given: created,
  },
  'update-unknown-feature-link': {
    operation: 'updateFeatureLink', params: { ...feature, linkId: 'no-such-link' }, body: { url: 'https://example.com' }, status: 404, given: created,
  },
  'delete-unknown-feature-link': { operation: 'deleteFeatureLink', params: { ...feature, linkId: 'no-such-link' }, status: 404, given: created },
  'bulk-enable-features': {
    operation: 'bulkEnableFeatures', params: { projectId: 'default', environment: 'development' },
    query: { shouldActivateDisabledStrategies: 'false' }, body: { features: [FEATURE] }, status: 200, given: created,
  },
  'bulk-disable-features': {
    operation: 'bulkDisableFeatures', params: { projectId: 'default', environment: 'development' },
    body: { features: [FEATURE] }, status: 200, given: created,
  },
  'bulk-tag-features': {
    operation: 'bulkUpdateFeatureTags', params: { projectId: 'default' },
    body: { features: [FEATURE], tags: { addedTags: [{ type: 'simple', value: 'bulk' }], removedTags: [] } }, status: 200, given: created,
  },
  'delete-archived-feature': {
    operation: 'deleteArchivedFeature',
    params: { featureName: FEATURE },
    status: 200,
    given: ['features/archive-feature'],
  },
});
