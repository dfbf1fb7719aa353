import { admin, defineRoutes } from '../http/route.js';
import { personalDashboardProjectSchema, personalDashboardSchema, profileSchema } from './schemas.js';

/**
 * The person's own pages: the dashboard after login and the profile. Unleash guards them with no
 * permission (any logged-in user); each takes the read permission every root role holds. They
 * answer a person: an API token is answered 400.
 */
export const personalDashboardRoutes = defineRoutes('instance', {
  getProfile: {
    method: 'GET', path: '/api/admin/user/profile', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "The caller's root role and projects (the default project, which Unleash binds every root role to); no e-mail subscriptions, as no e-mail is sent",
    response: profileSchema,
  },
  getPersonalDashboard: {
    method: 'GET', path: '/api/admin/personal-dashboard', access: admin('READ_PROJECT'), status: 200,
    summary: "The personal dashboard: the caller's projects (default and those starred), the flags they starred or created, and the administrators",
    response: personalDashboardSchema,
  },
  getPersonalDashboardProject: {
    method: 'GET', path: '/api/admin/personal-dashboard/{projectId}', access: admin('READ_PROJECT'), status: 200,
    summary: "One project on the personal dashboard: its newest events, onboarding status, owners, the caller's roles and its health",
    response: personalDashboardProjectSchema,
  },
});
