import { route, type RouteSpec } from '../route-types.js';
import {
  archiveSchema,
  featureCreateSchema,
  featureListSchema,
  featureSchema,
  featureUpdateSchema,
  projectFeatureListSchema,
  staleSchema,
} from '../schemas/features.js';
import { patchSchema } from '../schemas/json-patch.js';

const FEATURE = '/api/admin/projects/{projectId}/features/{featureName}';
const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** A feature's life: create, read, describe, patch, mark stale, archive, revive, delete. */
export const featureRoutes = {
  listProjectFeatures: route({
    method: 'GET', path: '/api/admin/projects/{projectId}/features', group: 'features', access: admin('READ_FEATURE'),
    status: 200, summary: 'List the features of a project', response: projectFeatureListSchema,
  }),
  createFeature: route({
    method: 'POST', path: '/api/admin/projects/{projectId}/features', group: 'features', access: admin('CREATE_FEATURE'),
    status: 201, summary: 'Create a feature', body: featureCreateSchema, response: featureSchema,
  }),
  getFeature: route({
    method: 'GET', path: FEATURE, group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'Get a feature with its environments, strategies and variants', response: featureSchema,
  }),
  updateFeature: route({
    method: 'PUT', path: FEATURE, group: 'features', access: admin('UPDATE_FEATURE'), status: 200,
    summary: "Update a feature's description, type, stale and impressionData", body: featureUpdateSchema, response: featureSchema,
  }),
  patchFeature: route({
    method: 'PATCH', path: FEATURE, group: 'features', access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'E9. Modify a feature with JSON Patch', body: patchSchema, response: featureSchema,
  }),
  archiveFeature: route({
    method: 'DELETE', path: FEATURE, group: 'features', access: admin('DELETE_FEATURE'), status: 202,
    summary: 'Archive one feature',
  }),
  markFeaturesStale: route({
    method: 'POST', path: '/api/admin/projects/{projectId}/stale', group: 'features', access: admin('UPDATE_FEATURE'),
    status: 202, summary: 'E5. Mark features stale or not stale', body: staleSchema,
  }),
  archiveFeatures: route({
    method: 'POST', path: '/api/admin/projects/{projectId}/archive', group: 'features', access: admin('DELETE_FEATURE'),
    status: 202, summary: 'E6. Archive a list of features', body: archiveSchema,
  }),
  listAllFeatures: route({
    method: 'GET', path: '/api/admin/features', group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'E15. Get all features (deprecated)', response: featureListSchema, deprecated: true,
  }),
  listArchivedFeatures: route({
    method: 'GET', path: '/api/admin/archive/features', group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: 'List archived features', response: featureListSchema,
  }),
  reviveFeature: route({
    method: 'POST', path: '/api/admin/archive/revive/{featureName}', group: 'features', access: admin('UPDATE_FEATURE'),
    status: 200, summary: 'Revive an archived feature (every environment off)',
  }),
  deleteArchivedFeature: route({
    method: 'DELETE', path: '/api/admin/archive/{featureName}', group: 'features', access: admin('DELETE_FEATURE'),
    status: 200, summary: 'Delete an archived feature for good',
  }),
} as const satisfies Record<string, RouteSpec>;
