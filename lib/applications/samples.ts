import { defineSamples } from '../samples.js';
import { applicationRoutes } from './routes.js';

/** `client/register` registers `sample-app` with the local admin token: development, every project. */
const registered = { given: ['client/register'] };

export const applicationSamples = defineSamples(applicationRoutes, {
  'applications': { operation: 'listApplications', query: { query: 'sample', offset: '0', limit: '50' }, ...registered, status: 200 },
  'applications-bad-limit': { operation: 'listApplications', query: { limit: '0' }, status: 400 },
  'application': { operation: 'getApplication', params: { appName: 'sample-app' }, ...registered, status: 200 },
  'application-unknown': { operation: 'getApplication', params: { appName: 'no-such-app-{{UNIQUE}}' }, status: 404 },
  // Registered under a name of its own, so the shared sample-app stays for the other samples.
  'delete-application': {
    operation: 'deleteApplication', params: { appName: 'retired-app-{{UNIQUE}}' }, given: ['client/register-retired-app'], status: 200,
  },
  'application-overview': { operation: 'getApplicationOverview', params: { appName: 'sample-app' }, ...registered, status: 200 },
  'application-instances': { operation: 'getApplicationInstances', params: { appName: 'sample-app', environment: 'development' }, ...registered, status: 200 },
  'project-applications': { operation: 'listProjectApplications', params: { projectId: 'default' }, ...registered, status: 200 },
});
