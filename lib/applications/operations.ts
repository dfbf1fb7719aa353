import type { OperationsFor } from '../http/operation.js';
import type { applicationRoutes } from './routes.js';
import type { ApplicationService } from './service.js';
import { applicationWire, projectApplicationWire, withinPageBytes } from './wire.js';

export const applicationOperations = ({ applications }: { applications: ApplicationService }): OperationsFor<typeof applicationRoutes> => ({
  listApplications: async ({ query }) => {
    const { applications: page, total } = await applications.list(query);
    return { body: { applications: withinPageBytes(page.map(applicationWire)), total } };
  },
  getApplication: async ({ params }) => ({ body: applicationWire(await applications.get(params.appName)) }),
  deleteApplication: async ({ params }) => {
    await applications.remove(params.appName);
    return {};
  },
  getApplicationOverview: async ({ params }) => ({ body: await applications.overview(params.appName) }),
  getApplicationInstances: async ({ params }) => ({ body: await applications.instances(params.appName, params.environment) }),
  listProjectApplications: async ({ params, query }) => {
    const { applications: page, total } = await applications.list(query, params.projectId);
    return { body: { applications: withinPageBytes(page.map(projectApplicationWire)), total } };
  },
});
