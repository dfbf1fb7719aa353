import { route, type RouteSpec } from '../route-types.js';
import { dependencyInputSchema, tagListSchema, tagSchema, tagsUpdateSchema, wireDependency, wireTag } from '../schemas/features.js';

const DEPENDENCIES = '/api/admin/projects/{projectId}/features/{featureName}/dependencies';
const TAGS = '/api/admin/features/{featureName}/tags';
const admin = (permission: string) => ({ kind: 'admin', permission }) as const;

/** Parent/child dependencies and tags of a feature. */
export const featureRelationRoutes = {
  addDependency: route({
    method: 'POST', path: DEPENDENCIES, group: 'features', access: admin('UPDATE_FEATURE_DEPENDENCY'), status: 200,
    summary: 'Make a feature depend on a parent feature', body: dependencyInputSchema, response: wireDependency,
  }),
  deleteDependency: route({
    method: 'DELETE', path: `${DEPENDENCIES}/{parentName}`, group: 'features', access: admin('UPDATE_FEATURE_DEPENDENCY'),
    status: 200, summary: "Remove a feature's dependency on one parent",
  }),
  deleteDependencies: route({
    method: 'DELETE', path: DEPENDENCIES, group: 'features', access: admin('UPDATE_FEATURE_DEPENDENCY'), status: 200,
    summary: "Remove all of a feature's dependencies",
  }),
  listFeatureTags: route({
    method: 'GET', path: TAGS, group: 'features', access: admin('READ_FEATURE'), status: 200,
    summary: "List a feature's tags", response: tagListSchema,
  }),
  addFeatureTag: route({
    method: 'POST', path: TAGS, group: 'features', access: admin('UPDATE_FEATURE'), status: 201,
    summary: 'Tag a feature', body: tagSchema, response: wireTag,
  }),
  updateFeatureTags: route({
    method: 'PUT', path: TAGS, group: 'features', access: admin('UPDATE_FEATURE'), status: 201,
    summary: 'E13. Add and remove tags of a feature', body: tagsUpdateSchema, response: tagListSchema,
  }),
  deleteFeatureTag: route({
    method: 'DELETE', path: `${TAGS}/{type}/{value}`, group: 'features', access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Remove a tag from a feature',
  }),
} as const satisfies Record<string, RouteSpec>;
