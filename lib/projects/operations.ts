import type { OperationsFor } from '../http/operation.js';
import type { ProjectPorts } from './ports.js';
import type { ProjectEnvironmentService } from './project-environments.js';
import type { ProjectService } from './project-service.js';
import type { projectRoutes } from './routes.js';
import { onboardingStatus } from './onboarding.js';
import { toDefaultStrategyWire, toNamingWire, toProjectOverviewWire, toProjectSettingsWire, toProjectSummaryWire } from './wire.js';

export function projectOperations(
  { projects, projectEnvironments }: { projects: ProjectService; projectEnvironments: ProjectEnvironmentService },
  { lastSeen, lastSeenOf, projectStats, favouriteProjectsOf }: Pick<ProjectPorts, 'lastSeen' | 'lastSeenOf' | 'projectStats' | 'favouriteProjectsOf'>,
): OperationsFor<typeof projectRoutes> {
  return {
    listProjects: async ({ caller }) => {
      const [list, favourites] = await Promise.all([projects.list(), favouriteProjectsOf(caller)]);
      return {
        body: {
          version: 1,
          projects: list.map((project) => ({
            ...toProjectSettingsWire(project),
            health: project.health,
            // The project cards' "% technical debt", as Unleash derives it from health.
            technicalDebt: 100 - project.health,
            featureCount: project.featureCount,
            memberCount: 0,
            updatedAt: project.updatedAt,
            favorite: favourites.has(project.id),
          })),
        },
      };
    },
    createProject: async ({ body, caller }) => {
      const project = await projects.create(body, caller.tokenName);
      return {
        body: { ...toProjectSettingsWire(project), featureNaming: toNamingWire(project.featureNaming), environments: project.environments },
        headers: { location: `projects/${project.id}` },
      };
    },
    getProjectOverview: async ({ params, query, caller }) => {
      const reading = projects.overview(params.projectId, { archived: query.archived, listed: true });
      // The statistics read their events while the overview reads the features; an unknown project fails every read.
      const [overview, stats, favourites, seen] = await Promise.all([
        reading,
        projectStats(params.projectId, reading.then(({ allFeatures }) => allFeatures)),
        favouriteProjectsOf(caller),
        reading.then(({ features }) => (features.length > 0 ? lastSeenOf(features) : new Map<string, Record<string, string>>())),
      ]);
      // Every listed feature is the project's own, so each is shown in the project's environments.
      const contexts = overview.features.map((feature) => ({ environments: overview.environments, lastSeen: seen.get(feature.name) ?? {} }));
      return { body: { stats, ...toProjectOverviewWire(overview, contexts), favorite: favourites.has(overview.project.id) } };
    },
    getProjectSummary: async ({ params, query, caller }) => {
      const reading = projects.overview(params.projectId, { archived: query.archived });
      // The statistics read their events while the overview reads the features; an unknown project fails every read.
      const [overview, stats, favourites, onboarding] = await Promise.all([
        reading,
        projectStats(params.projectId, reading.then(({ allFeatures }) => allFeatures)),
        favouriteProjectsOf(caller),
        reading.then(({ active }) => onboardingStatus(active, lastSeen)),
      ]);
      return { body: { stats, ...toProjectSummaryWire(overview, onboarding), favorite: favourites.has(overview.project.id) } };
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
