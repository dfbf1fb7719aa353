import type { FeatureViewContext } from '../features/model.js';
import { toFeatureWire } from '../features/wire.js';
import type { DefaultStrategy, FeatureNaming, Project } from './model.js';
import type { ProjectOverview } from './project-service.js';

export function toProjectSettingsWire(project: Project) {
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
export function toNamingWire(naming: FeatureNaming | null): FeatureNaming {
  return naming ?? { pattern: null, example: null, description: null };
}

/** The features appear as the feature endpoints show them, with their environments and last-seen times. */
export function toProjectOverviewWire({ project, environments, features, health, members }: ProjectOverview, contexts: FeatureViewContext[]) {
  return {
    version: 1 as const,
    name: project.name,
    description: project.description,
    mode: project.mode,
    defaultStickiness: project.defaultStickiness,
    featureLimit: project.featureLimit,
    featureNaming: toNamingWire(project.featureNaming),
    members,
    health,
    environments: environments.map(({ name }) => {
      const strategy = project.defaultStrategies[name];
      return { environment: name, ...(strategy ? { defaultStrategy: toDefaultStrategyWire(strategy) } : {}) };
    }),
    features: features.map((feature, index) => toFeatureWire(feature, contexts[index] as FeatureViewContext)),
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    favorite: false,
  };
}

export function toDefaultStrategyWire(strategy: DefaultStrategy) {
  return { name: strategy.name, title: strategy.title ?? null, constraints: strategy.constraints, parameters: strategy.parameters };
}
