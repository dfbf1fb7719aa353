import type { DefaultStrategy, Project } from '../projects/model.js';
import type { EnvironmentUse } from '../projects/project-service.js';
import type { ApiToken } from '../tokens/model.js';
import type { Environment } from './model.js';
import type { EnvironmentWire } from './schemas.js';

export function toEnvironmentWire(environment: Environment): EnvironmentWire {
  return {
    name: environment.name,
    type: environment.type,
    enabled: environment.enabled,
    protected: environment.protected,
    sortOrder: environment.sortOrder,
    createdAt: environment.createdAt,
  };
}

/**
 * Unleash counts the tokens of exactly this environment (so not admin tokens, whose environment
 * is `*`) that name the project or every project.
 */
export function toProjectEnvironmentWire({ environment, visible, enabledFeatures }: EnvironmentUse, project: Project, tokens: ApiToken[]) {
  const { createdAt: _createdAt, ...fields } = toEnvironmentWire(environment);
  const strategy = project.defaultStrategies[environment.name];
  return {
    ...fields,
    projectApiTokenCount: tokens.filter((t) => t.environment === environment.name && (t.projects.includes('*') || t.projects.includes(project.id))).length,
    projectEnabledToggleCount: enabledFeatures,
    ...(strategy ? { defaultStrategy: toDefaultStrategyWire(strategy) } : {}),
    visible,
  };
}

export function toDefaultStrategyWire(strategy: DefaultStrategy) {
  return { name: strategy.name, title: strategy.title ?? null, constraints: strategy.constraints, parameters: strategy.parameters };
}
