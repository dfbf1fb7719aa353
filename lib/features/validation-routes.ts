import { admin, defineRoutes } from '../http/route.js';
import { constraintSchema } from './constraint-schemas.js';
import { archiveSchema, archiveValidationSchema, featureNameCheckSchema } from './schemas.js';

/**
 * The checks the admin UI asks for before it saves: a new feature's name, one constraint, what
 * archiving some features would break. Unleash lets any signed-in user ask the first two (no
 * permission); here they need the read permission, which every role holds.
 */
export const featureValidationRoutes = defineRoutes('features', {
  validateFeatureName: {
    method: 'POST', path: '/api/admin/features/validate', access: admin('READ_FEATURE'), status: 200,
    summary: "Check a new feature's name: URL-friendly, unused (archived features included), and the project's naming pattern",
    body: featureNameCheckSchema,
  },
  validateConstraint: {
    method: 'POST', path: '/api/admin/constraints/validate', access: admin('READ_FEATURE'), status: 204,
    summary: 'Check a constraint as a strategy save would (operator values, context field, legal values)',
    body: constraintSchema,
  },
  validateArchiveFeatures: {
    method: 'POST', path: '/api/admin/projects/{projectId}/archive/validate', access: admin('DELETE_FEATURE'), status: 200,
    summary: 'Tell what archiving features would affect: dependencies that go, parents whose children stay',
    body: archiveSchema, response: archiveValidationSchema,
  },
});
