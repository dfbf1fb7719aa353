import { admin, defineRoutes } from '../http/route.js';
import {
  flagCreatorsSchema,
  instanceStatisticsSchema, outdatedSdksSchema, personalDashboardProjectSchema, personalDashboardSchema, profileSchema,
  projectStatusSchema, telemetrySettingsSchema, uiErrorSchema,
} from './schemas.js';

/**
 * The rest of what the admin UI calls on its dashboard, project, flag and settings pages. Unleash
 * guards these with no permission (any logged-in user), so each takes the read permission of
 * what it shows; the one POST (the UI's own errors) changes nothing.
 */
export const uiSupportRoutes = defineRoutes('instance', {
  getProfile: {
    method: 'GET', path: '/api/admin/user/profile', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "The caller's root role; no favourites, subscriptions or project memberships are kept", response: profileSchema,
  },
  getPersonalDashboard: {
    method: 'GET', path: '/api/admin/personal-dashboard', access: admin('READ_PROJECT'), status: 200,
    summary: 'The personal dashboard: empty (no favourites or project memberships are kept)', response: personalDashboardSchema,
  },
  getPersonalDashboardProject: {
    method: 'GET', path: '/api/admin/personal-dashboard/{projectId}', access: admin('READ_PROJECT'), status: 200,
    summary: "One project on the personal dashboard: its flags' counts and health", response: personalDashboardProjectSchema,
  },
  getProjectStatus: {
    method: 'GET', path: '/api/admin/projects/{projectId}/status', access: admin('READ_PROJECT'), status: 200,
    summary: "A project's status page: health, technical debt, stale and archived flags", response: projectStatusSchema,
  },
  getProjectFlagCreators: {
    method: 'GET', path: '/api/admin/projects/{projectId}/flag-creators', access: admin('READ_PROJECT'), status: 200,
    summary: "Users who created the project's flags: empty (flags record no creator)", response: flagCreatorsSchema,
  },
  getOutdatedSdks: {
    method: 'GET', path: '/api/admin/projects/{projectId}/sdks/outdated', access: admin('READ_PROJECT'), status: 200,
    summary: 'SDK versions in use that are outdated: none known (no list of outdated versions is kept)', response: outdatedSdksSchema,
  },
  getInstanceStatistics: {
    // Unleash lets any logged-in user read it; the UI shows it only in Admin settings, and each
    // read counts the whole table, so it is not left to every Viewer.
    method: 'GET', path: '/api/admin/instance-admin/statistics', access: admin('ADMIN'), status: 200,
    summary: "Admin settings' instance statistics: counts of users, tokens, flags, projects and the catalogues, read now",
    response: instanceStatisticsSchema,
  },
  getTelemetrySettings: {
    method: 'GET', path: '/api/admin/telemetry/settings', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'Telemetry: none is collected', response: telemetrySettingsSchema,
  },
  recordUiError: {
    method: 'POST', path: '/api/admin/record-ui-error', access: admin('READ_UI_CONFIG'), status: 204,
    summary: "An error the admin UI met, written to the service's log", body: uiErrorSchema,
  },
});
