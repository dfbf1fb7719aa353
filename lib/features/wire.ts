import type { Environment } from '../environments/model.js';
import type { FeatureWire } from './schemas.js';
import { currentStage } from './rules/lifecycle.js';
import { environmentOf, type Feature, type FeatureEnvironment, type FeatureStrategy, type FeatureViewContext } from './model.js';

export function toFeatureWire(feature: Feature, context: FeatureViewContext): FeatureWire {
  const environments = context.environments.map((environment) => toFeatureEnvironmentWire(feature, environment, context));
  const lastSeen = Object.values(context.lastSeen).sort().at(-1) ?? null;
  return {
    name: feature.name,
    type: feature.type,
    description: feature.description,
    archived: feature.archived,
    project: feature.project,
    enabled: environments.some((environment) => environment.enabled),
    stale: feature.stale,
    favorite: false,
    impressionData: feature.impressionData,
    createdAt: feature.createdAt,
    ...(feature.createdBy ? { createdBy: feature.createdBy } : {}),
    archivedAt: feature.archivedAt,
    lastSeenAt: lastSeen,
    environments,
    variants: environments[0]?.variants ?? [],
    strategies: [],
    tags: feature.tags,
    children: feature.children,
    dependencies: feature.dependencies,
    lifecycle: lifecycleWire(feature),
    links: (feature.links ?? []).map((link) => ({ ...link, feature: feature.name })),
  };
}

export function toFeatureEnvironmentWire(feature: Feature, environment: Environment, context: FeatureViewContext) {
  const state: FeatureEnvironment = environmentOf(feature, environment.name);
  const strategies = [...state.strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  return {
    name: environment.name,
    featureName: feature.name,
    environment: environment.name,
    type: environment.type,
    enabled: state.enabled,
    sortOrder: environment.sortOrder,
    variantCount: state.variants.length,
    strategies: strategies.map((strategy) => toStrategyWire(feature.name, strategy)),
    variants: state.variants,
    lastSeenAt: context.lastSeen[environment.name] ?? null,
    hasStrategies: strategies.length > 0,
    hasEnabledStrategies: strategies.some((strategy) => !strategy.disabled),
  };
}

export function toStrategyWire(featureName: string, strategy: FeatureStrategy) {
  return {
    id: strategy.id,
    name: strategy.name,
    title: strategy.title,
    disabled: strategy.disabled,
    featureName,
    sortOrder: strategy.sortOrder,
    segments: strategy.segments,
    constraints: strategy.constraints,
    variants: strategy.variants,
    parameters: strategy.parameters,
  };
}

/** An item of a project's feature list: the overview, without strategies. */
export function toProjectFeatureItemWire(feature: Feature, context: FeatureViewContext) {
  const full = toFeatureWire(feature, context);
  return {
    name: full.name,
    type: full.type,
    description: full.description,
    createdAt: full.createdAt,
    lastSeenAt: full.lastSeenAt,
    stale: full.stale,
    impressionData: full.impressionData,
    favorite: full.favorite,
    tags: full.tags,
    environments: full.environments.map(({ strategies: _s, variants: _v, featureName: _f, environment: _e, ...rest }) => rest),
  };
}

/** The flag's current stage as Unleash answers it: `status` only on a completed flag. */
export function lifecycleWire(feature: Feature) {
  const { stage, status, enteredStageAt } = currentStage(feature);
  return { stage, ...(status ? { status } : {}), enteredStageAt };
}
