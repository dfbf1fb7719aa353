import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import type { projectRoutes } from './routes.js';
import { onboardingStatus } from './onboarding.js';
import { toDefaultStrategyWire, toNamingWire, toProjectOverviewWire, toProjectSettingsWire, toProjectSummaryWire } from './wire.js';

export function projectOperations({ projects, projectEnvironments, features, projectStats, lastSeen }: Services): OperationsFor<typeof projectRoutes> {
  return {
    listProjects: async () => ({
      body: {
        version: 1,
        projects: (await projects.list()).map((project) => ({
          ...toProjectSettingsWire(project),
          health: project.health,
          featureCount: project.featureCount,
          memberCount: 0,
          updatedAt: project.updatedAt,
          favorite: false,
        })),
      },
    }),
    createProject: async ({ body, caller }) => {
      const project = await projects.create(body, caller.tokenName);
      return {
        body: { ...toProjectSettingsWire(project), featureNaming: toNamingWire(project.featureNaming), environments: project.environments },
        headers: { location: `projects/${project.id}` },
      };
    },
    getProjectOverview: async ({ params, query }) => {
      const overview = await projects.overview(params.projectId, { archived: query.archived });
      const [contexts, stats] = await Promise.all([
        features.views.contextsFor(overview.features),
        projectStats.forProject(overview.project.id),
      ]);
      return { body: { stats, ...toProjectOverviewWire(overview, contexts) } };
    },
    getProjectSummary: async ({ params, query }) => {
      const overview = await projects.overview(params.projectId, { archived: query.archived });
      const [onboarding, stats] = await Promise.all([onboardingStatus(overview.active, lastSeen), projectStats.forProject(overview.project.id)]);
      return { body: { stats, ...toProjectSummaryWire(overview, onboarding) } };
    },
    updateProject: async ({ params, body, caller }) => {
      await projects.update(params.projectId, body, caller.tokenName);
      return {};
    },
    deleteProject: async ({ params, caller }) => {
      await projects.delete(params.projectId, caller.tokenName);
      return {};
    },
    addProjectEnvironment: async ({ params, body, caller }) => {
      await projectEnvironments.add(params.projectId, body.environment, caller.tokenName);
      return {};
    },
    removeProjectEnvironment: async ({ params, caller }) => {
      await projectEnvironments.remove(params.projectId, params.environment, caller.tokenName);
      return {};
    },
    setProjectDefaultStrategy: async ({ params, body, caller }) => ({
      body: toDefaultStrategyWire(await projectEnvironments.setDefaultStrategy(params.projectId, params.environment, body, caller.tokenName)),
    }),
  };
}
