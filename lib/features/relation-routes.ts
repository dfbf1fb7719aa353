import { admin, defineRoutes } from '../http/route.js';
import * as z from 'zod';
import { dependencyInputSchema, tagListSchema, tagSchema, tagsUpdateSchema, wireDependency, wireTag } from './schemas.js';

const FEATURE = '/api/admin/projects/{projectId}/features/{featureName}';
const DEPENDENCIES = `${FEATURE}/dependencies`;
const TAGS = '/api/admin/features/{featureName}/tags';
const names = z.array(z.string());

/** Parent/child dependencies and tags of a feature. */
export const featureRelationRoutes = defineRoutes('features', {
  addDependency: {
    method: 'POST', path: DEPENDENCIES, access: admin('UPDATE_FEATURE_DEPENDENCY'), status: 200,
    summary: 'Make a feature depend on a parent feature', body: dependencyInputSchema, response: wireDependency,
  },
  deleteDependency: {
    method: 'DELETE', path: `${DEPENDENCIES}/{parentName}`, access: admin('UPDATE_FEATURE_DEPENDENCY'),
    status: 200, summary: "Remove a feature's dependency on one parent",
  },
  deleteDependencies: {
    method: 'DELETE', path: DEPENDENCIES, access: admin('UPDATE_FEATURE_DEPENDENCY'), status: 200,
    summary: "Remove all of a feature's dependencies",
  },
  listParentOptions: {
    method: 'GET', path: `${FEATURE}/parents`, access: admin('READ_FEATURE'), status: 200,
    summary: 'List the features this feature may depend on (same project, active, without a parent of their own)', response: names,
  },
  listParentVariantOptions: {
    method: 'GET', path: `${FEATURE}/parent-variants`, access: admin('READ_FEATURE'), status: 200,
    summary: "List the variant names of a feature that its children may require", response: names,
  },
  checkDependenciesExist: {
    method: 'GET', path: '/api/admin/projects/{projectId}/dependencies', access: admin('READ_FEATURE'), status: 200,
    summary: 'Tell whether any feature of the project depends on another', response: z.boolean(),
  },
  listFeatureTags: {
    method: 'GET', path: TAGS, access: admin('READ_FEATURE'), status: 200,
    summary: "List a feature's tags", response: tagListSchema,
  },
  addFeatureTag: {
    method: 'POST', path: TAGS, access: admin('UPDATE_FEATURE'), status: 201,
    summary: 'Tag a feature', body: tagSchema, response: wireTag,
  },
  updateFeatureTags: {
    method: 'PUT', path: TAGS, access: admin('UPDATE_FEATURE'), status: 201,
    summary: 'E13. Add and remove tags of a feature', body: tagsUpdateSchema, response: tagListSchema,
  },
  deleteFeatureTag: {
    method: 'DELETE', path: `${TAGS}/{type}/{value}`, access: admin('UPDATE_FEATURE'), status: 200,
    summary: 'Remove a tag from a feature',
  },
});
