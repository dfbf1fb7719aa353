import type { OperationsFor } from '../http/operation.js';
import type { personalDashboardRoutes } from './routes.js';
import type { PersonalDashboardService } from './service.js';

export const personalDashboardOperations = (
  { personalDashboard }: { personalDashboard: PersonalDashboardService },
): OperationsFor<typeof personalDashboardRoutes> => ({
  getProfile: async ({ caller }) => ({ body: await personalDashboard.profile(caller) }),
  getPersonalDashboard: async ({ caller }) => ({ body: await personalDashboard.dashboard(caller) }),
  getPersonalDashboardProject: async ({ caller, params }) => ({ body: await personalDashboard.projectDetails(caller, params.projectId) }),
});
