import { admin, defineRoutes } from '../http/route.js';
import { flagCreatorsSchema, outdatedSdksSchema, projectStatusSchema } from './schemas.js';

/** A project's status page and the project page's creator filter and SDK warning (Unleash guards them with READ_PROJECT or none). */
export const projectStatusRoutes = defineRoutes('instance', {
  getProjectStatus: {
    method: 'GET', path: '/api/admin/projects/{projectId}/status', access: admin('READ_PROJECT'), status: 200,
    summary: "A project's status: activity by day over the last year (from its events), API tokens and segments, health, technical debt, flags per lifecycle stage, stale flags",
    response: projectStatusSchema,
  },
  getProjectFlagCreators: {
    method: 'GET', path: '/api/admin/projects/{projectId}/flag-creators', access: admin('READ_PROJECT'), status: 200,
    summary: "Who created the project's active flags (flags created before creators were recorded are left out)", response: flagCreatorsSchema,
  },
  getOutdatedSdks: {
    method: 'GET', path: '/api/admin/projects/{projectId}/sdks/outdated', access: admin('READ_PROJECT'), status: 200,
    summary: "SDK versions older than Unleash's published cut-offs among the applications registered for the project, with their applications",
    response: outdatedSdksSchema,
  },
});
