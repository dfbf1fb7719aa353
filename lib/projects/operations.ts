import type { Services } from '../composition/services.js';
import { toFeatureWire } from '../features/wire.js';
import type { FeatureViewContext } from '../features/views.js';
import type { OperationsFor } from '../http/operation.js';
import type { DefaultStrategy, FeatureNaming, Project } from './model.js';
import type { ProjectOverview } from './project-service.js';
import type { projectRoutes } from './routes.js';

export function projectOperations({ projects, projectEnvironments, features, projectStats }: Services): OperationsFor<typeof projectRoutes> {
  return {
    listProjects: async () => ({
      body: {
        version: 1,
        projects: (await projects.list()).map((project) => ({
          ...settingsOf(project),
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
        body: { ...settingsOf(project), featureNaming: namingOf(project.featureNaming), environments: project.environments },
        headers: { location: `projects/${project.id}` },
      };
    },
    getProjectOverview: async ({ params, query }) => {
      const overview = await projects.overview(params.projectId, { archived: query.archived });
      const [contexts, stats] = await Promise.all([
        features.views.contextsFor(overview.features),
        projectStats.forProject(overview.project.id),
      ]);
      return { body: { stats, ...overviewWire(overview, contexts) } };
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
      body: defaultStrategyWire(await projectEnvironments.setDefaultStrategy(params.projectId, params.environment, body, caller.tokenName)),
    }),
  };
}

function settingsOf(project: Project) {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    mode: project.mode,
    defaultStickiness: project.defaultStickiness,
    featureLimit: project.featureLimit,
    createdAt: project.createdAt,
  };
}

/** The wire always carries the naming object, with nulls when the project has no pattern (as Unleash shows it). */
function namingOf(naming: FeatureNaming | null): FeatureNaming {
  return naming ?? { pattern: null, example: null, description: null };
}

/** The features appear as the feature endpoints show them, with their environments and last-seen times. */
function overviewWire({ project, environments, features, health, members }: ProjectOverview, contexts: FeatureViewContext[]) {
  return {
    version: 1 as const,
    name: project.name,
    description: project.description,
    mode: project.mode,
    defaultStickiness: project.defaultStickiness,
    featureLimit: project.featureLimit,
    featureNaming: namingOf(project.featureNaming),
    members,
    health,
    environments: environments.map(({ name }) => {
      const strategy = project.defaultStrategies[name];
      return { environment: name, ...(strategy ? { defaultStrategy: defaultStrategyWire(strategy) } : {}) };
    }),
    features: features.map((feature, index) => toFeatureWire(feature, contexts[index] as FeatureViewContext)),
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    favorite: false,
  };
}

function defaultStrategyWire(strategy: DefaultStrategy) {
  return { name: strategy.name, title: strategy.title ?? null, constraints: strategy.constraints, parameters: strategy.parameters };
}
