import { admin, defineRoutes } from '../http/route.js';
import {
  applicationInstancesSchema, applicationOverviewSchema, applicationSchema, applicationSearchQuerySchema, applicationsSchema, projectApplicationsSchema,
} from './schemas.js';

/** The applications SDKs registered (the admin UI's Applications page), read from their registrations. */
export const applicationRoutes = defineRoutes('instance', {
  listApplications: {
    method: 'GET', path: '/api/admin/metrics/applications', access: admin('READ_FEATURE'), status: 200,
    summary: 'Applications that registered through an SDK, by name: a page (offset, limit; fewer than limit past 4 MB of them) and a name search (query)',
    query: applicationSearchQuerySchema, response: applicationsSchema,
  },
  getApplication: {
    method: 'GET', path: '/api/admin/metrics/applications/{appName}', access: admin('READ_FEATURE'), status: 200,
    summary: 'One application: its SDK, the strategy types it knows, the projects and environments it used',
    response: applicationSchema,
  },
  deleteApplication: {
    method: 'DELETE', path: '/api/admin/metrics/applications/{appName}', access: admin('UPDATE_APPLICATION'), status: 200,
    summary: "Delete an application: its registrations in every token scope (200 whether or not it was registered; it is listed again when its SDK registers again)",
  },
  getApplicationOverview: {
    method: 'GET', path: '/api/admin/metrics/applications/{appName}/overview', access: admin('READ_FEATURE'), status: 200,
    summary: "One application's environments: instances, SDKs, last seen",
    response: applicationOverviewSchema,
  },
  getApplicationInstances: {
    method: 'GET', path: '/api/admin/metrics/instances/{appName}/environment/{environment}', access: admin('READ_FEATURE'), status: 200,
    summary: "The instances of an application seen in one environment (the newest of each token scope)",
    response: applicationInstancesSchema,
  },
  listProjectApplications: {
    method: 'GET', path: '/api/admin/projects/{projectId}/applications', access: admin('READ_PROJECT'), status: 200,
    summary: "Applications registered with a token of the project (or of every project): SDKs, environments, instances",
    query: applicationSearchQuerySchema, response: projectApplicationsSchema,
  },
});
