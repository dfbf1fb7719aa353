import { admin, defineRoutes } from '../http/route.js';
import {
  bulkFeaturesSchema, bulkSwitchQuerySchema, bulkTagsSchema, featureCompletionSchema, featureLinkInputSchema,
  lifecycleCountSchema, lifecycleStageListSchema,
} from './schemas.js';

const FEATURE = '/api/admin/projects/{projectId}/features/{featureName}';
const BULK_ENV = '/api/admin/projects/{projectId}/bulk_features/environments/{environment}';

/**
 * What the admin UI's flag page and project flag table add around a flag (Unleash 7): its
 * lifecycle stages, its links, and the table's bulk actions over the selected flags.
 */
export const featureStageRoutes = defineRoutes('features', {
  getFeatureLifecycle: {
    method: 'GET', path: `${FEATURE}/lifecycle`, access: admin('READ_FEATURE'), status: 200,
    summary: 'The lifecycle stages a flag entered (initial, pre-live, live, completed, archived), oldest first',
    response: lifecycleStageListSchema,
  },
  completeFeature: {
    method: 'POST', path: `${FEATURE}/lifecycle/complete`, access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Mark a flag completed, with its code kept or discarded (and what was kept)', body: featureCompletionSchema,
  },
  uncompleteFeature: {
    method: 'POST', path: `${FEATURE}/lifecycle/uncomplete`, access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Take back the completion of a flag',
  },
  getLifecycleCount: {
    method: 'GET', path: '/api/admin/lifecycle/count', access: admin('READ_FEATURE'), status: 200,
    summary: 'Flags per lifecycle stage: each flag, archived ones too, under the stage it entered last', response: lifecycleCountSchema,
  },
  addFeatureLink: {
    method: 'POST', path: `${FEATURE}/link`, access: admin('UPDATE_FEATURE'), status: 204,
    summary: 'Add a link to a flag (at most 10)', body: featureLinkInputSchema,
  },
  updateFeatureLink: {
    method: 'PUT', path: `${FEATURE}/link/{linkId}`, access: admin('UPDATE_FEATURE'), status: 204,
    summary: "Change a flag link's address or title", body: featureLinkInputSchema,
  },
  deleteFeatureLink: {
    method: 'DELETE', path: `${FEATURE}/link/{linkId}`, access: admin('UPDATE_FEATURE'), status: 204,
    summary: 'Remove a flag link',
  },
  bulkEnableFeatures: {
    method: 'POST', path: `${BULK_ENV}/on`, access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'Enable the named flags of a project in one environment, each flag wholly or not at all',
    query: bulkSwitchQuerySchema, body: bulkFeaturesSchema,
  },
  bulkDisableFeatures: {
    method: 'POST', path: `${BULK_ENV}/off`, access: admin('UPDATE_FEATURE_ENVIRONMENT'), status: 200,
    summary: 'Disable the named flags of a project in one environment, each flag wholly or not at all',
    query: bulkSwitchQuerySchema, body: bulkFeaturesSchema,
  },
  bulkUpdateFeatureTags: {
    method: 'PUT', path: '/api/admin/projects/{projectId}/tags', access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Add and remove tags on the named flags of a project, each flag wholly or not at all', body: bulkTagsSchema,
  },
});
