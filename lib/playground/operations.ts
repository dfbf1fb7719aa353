import type { OperationsFor } from '../http/operation.js';
import type { playgroundRoutes } from './routes.js';
import type { EnvironmentFeature, PlaygroundService } from './service.js';

export const playgroundOperations = ({ playground }: { playground: PlaygroundService }): OperationsFor<typeof playgroundRoutes> => ({
  evaluatePlayground: async ({ body }) => {
    const { features } = await playground.evaluate({ projects: body.projects, environments: [body.environment], context: body.context, split: false });
    return { body: { input: body, features: features.map(({ environment: _environment, context: _context, ...feature }) => feature) } };
  },
  evaluateAdvancedPlayground: async ({ body }) => {
    const { features, removed } = await playground.evaluate({ projects: body.projects, environments: body.environments, context: body.context, split: true });
    return { body: { input: body, features: byFlag(features), ...(removed.length > 0 ? { warnings: { invalidContextProperties: removed } } : {}) } };
  },
});

/** The advanced answer: one entry per flag, its evaluations grouped by environment. */
function byFlag(features: EnvironmentFeature[]) {
  const flags = new Map<string, { name: string; projectId: string; environments: Record<string, EnvironmentFeature[]> }>();
  for (const feature of features) {
    const flag = flags.get(feature.name) ?? { name: feature.name, projectId: feature.projectId, environments: {} };
    (flag.environments[feature.environment] ??= []).push(feature);
    flags.set(feature.name, flag);
  }
  return [...flags.values()];
}
