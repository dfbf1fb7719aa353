import { admin, defineRoutes } from '../http/route.js';
import {
  archiveSchema,
  featureCloneSchema,
  featureCreateSchema,
  featureListSchema,
  featureSchema,
  featureTypeListSchema,
  featureTypeLifetimeSchema,
  featureTypeSchema,
  featureUpdateSchema,
  projectFeatureListSchema,
  staleSchema,
} from './schemas.js';
import { patchSchema } from './json-patch.js';

const FEATURE = '/api/admin/projects/{projectId}/features/{featureName}';
/** Where a caller of a full list that no longer fits one answer pages instead. */
export const SEARCH_PAGE = '/api/admin/search/features?offset=0&limit=100';

/** A feature's life: create, clone, read, describe, patch, mark stale, archive, revive, delete. */
export const featureRoutes = defineRoutes('features', {
  listProjectFeatures: {
    method: 'GET', path: '/api/admin/projects/{projectId}/features', access: admin('READ_FEATURE'),
    status: 200, summary: 'List the features of a project', response: projectFeatureListSchema,
  },
  createFeature: {
    method: 'POST', path: '/api/admin/projects/{projectId}/features', access: admin('CREATE_FEATURE'),
    status: 201, summary: 'Create a feature', body: featureCreateSchema, response: featureSchema,
  },
  cloneFeature: {
    method: 'POST', path: `${FEATURE}/clone`, access: admin('CREATE_FEATURE'), status: 201,
    summary: 'Clone a feature under a new name: its strategies and variants, off in every environment',
    body: featureCloneSchema, response: featureSchema,
  },
  getFeature: {
    method: 'GET', path: FEATURE, access: admin('READ_FEATURE'), status: 200,
    summary: 'Get a feature with its environments, strategies and variants', response: featureSchema,
  },
  updateFeature: {
    method: 'PUT', path: FEATURE, access: admin('UPDATE_FEATURE'), status: 200,
    summary: "Update a feature's description, type, stale and impressionData", body: featureUpdateSchema, response: featureSchema,
  },
  patchFeature: {
    method: 'PATCH', path: FEATURE, access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'E9. Modify a feature with JSON Patch', body: patchSchema, response: featureSchema,
  },
  archiveFeature: {
    method: 'DELETE', path: FEATURE, access: admin('DELETE_FEATURE'), status: 202,
    summary: 'Archive one feature',
  },
  markFeaturesStale: {
    method: 'POST', path: '/api/admin/projects/{projectId}/stale', access: admin('UPDATE_FEATURE'),
    status: 202, summary: 'E5. Mark features stale or not stale', body: staleSchema,
  },
  archiveFeatures: {
    method: 'POST', path: '/api/admin/projects/{projectId}/archive', access: admin('DELETE_FEATURE'),
    status: 202, summary: 'E6. Archive a list of features', body: archiveSchema,
  },
  reviveFeatures: {
    method: 'POST', path: '/api/admin/projects/{projectId}/revive', access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Revive archived features of a project (every environment off)', body: archiveSchema,
  },
  deleteArchivedFeatures: {
    method: 'POST', path: '/api/admin/projects/{projectId}/delete', access: admin('DELETE_FEATURE'), status: 200,
    summary: 'Delete archived features of a project for good', body: archiveSchema,
  },
  listAllFeatures: {
    method: 'GET', path: '/api/admin/features', access: admin('READ_FEATURE'), status: 200,
    summary: 'E15. Get all features (deprecated)', response: featureListSchema, deprecated: true,
    pagedAlternative: SEARCH_PAGE,
  },
  listArchivedFeatures: {
    method: 'GET', path: '/api/admin/archive/features', access: admin('READ_FEATURE'), status: 200,
    summary: 'List archived features', response: featureListSchema,
  },
  listFeatureTypes: {
    method: 'GET', path: '/api/admin/feature-types', access: admin('READ_FEATURE'), status: 200,
    summary: 'List the feature types with the days a feature of each is expected to live', response: featureTypeListSchema,
  },
  updateFeatureTypeLifetime: {
    method: 'PUT', path: '/api/admin/feature-types/{type}/lifetime', access: admin('ADMIN'), status: 200,
    summary: 'Set how many days a flag of this type is expected to live (null or 0: it never becomes potentially stale)',
    body: featureTypeLifetimeSchema, response: featureTypeSchema,
  },
  reviveFeature: {
    method: 'POST', path: '/api/admin/archive/revive/{featureName}', access: admin('UPDATE_FEATURE'),
    status: 200, summary: 'Revive an archived feature (every environment off)',
  },
  deleteArchivedFeature: {
    method: 'DELETE', path: '/api/admin/archive/{featureName}', access: admin('DELETE_FEATURE'),
    status: 200, summary: 'Delete an archived feature for good',
  },
});
