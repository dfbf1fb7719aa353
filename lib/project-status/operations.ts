import type { OperationsFor } from '../http/operation.js';
import type { projectStatusRoutes } from './routes.js';
import type { ProjectStatusService } from './service.js';

export const projectStatusOperations = ({ projectStatus }: { projectStatus: ProjectStatusService }): OperationsFor<typeof projectStatusRoutes> => ({
  getProjectStatus: async ({ params }) => ({ body: await projectStatus.status(params.projectId) }),
  getProjectFlagCreators: async ({ params }) => ({ body: await projectStatus.flagCreators(params.projectId) }),
  getOutdatedSdks: async ({ params }) => ({ body: { sdks: await projectStatus.outdatedSdks(params.projectId) } }),
});
