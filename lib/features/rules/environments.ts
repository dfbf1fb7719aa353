import { NotFound } from '../../errors.js';
import type { DefaultStrategy } from '../../projects/model.js';
import { environmentOf, type Feature, type FeatureEnvironment, type FeatureStrategy } from '../model.js';

export function withEnvironment(
  feature: Feature,
  environment: string,
  update: (state: FeatureEnvironment) => FeatureEnvironment,
): Feature {
  return { ...feature, environments: { ...feature.environments, [environment]: update(environmentOf(feature, environment)) } };
}

export const hasActiveStrategy = (state: FeatureEnvironment): boolean =>
  state.strategies.some((strategy) => !strategy.disabled);

/**
 * Unleash's invariant: an environment is only on while it has an active strategy, because
 * SDKs treat "on with no strategies" as on for everyone. Deleting or disabling the last active
 * strategy therefore switches the environment off.
 */
export function keepEnabledInvariant(state: FeatureEnvironment): FeatureEnvironment {
  return state.enabled && !hasActiveStrategy(state) ? { ...state, enabled: false } : state;
}

/**
 * E7: switches an environment on. With no active strategy it first adds the project's default
 * strategy for the environment, or a 100% gradual rollout, grouped by the feature's name.
 */
export function turnOn(
  feature: Feature, environment: string, fallback: DefaultStrategy | undefined, newId: string, activateDisabledStrategies = false,
): Feature {
  return withEnvironment(feature, environment, (state) => {
    // Unleash's `shouldActivateDisabledStrategies`: the disabled strategies are switched on instead of adding one.
    if (activateDisabledStrategies && state.strategies.some((strategy) => strategy.disabled)) {
      return { ...state, enabled: true, strategies: state.strategies.map((strategy) => ({ ...strategy, disabled: false })) };
    }
    if (hasActiveStrategy(state)) return { ...state, enabled: true };
    const base = fallback ?? {
      name: 'flexibleRollout',
      constraints: [],
      parameters: { rollout: '100', stickiness: 'default', groupId: '' },
    };
    const parameters = { ...base.parameters };
    // A rollout grouped by the feature's name, unless the project's default names a group.
    if (parameters.groupId === '') parameters.groupId = feature.name;
    const strategy: FeatureStrategy = {
      id: newId,
      name: base.name,
      title: base.title ?? null,
      disabled: false,
      sortOrder: nextSortOrder(state),
      constraints: base.constraints,
      parameters,
      variants: [],
      segments: [],
    };
    return { ...state, enabled: true, strategies: [...state.strategies, strategy] };
  });
}

export function turnOff(feature: Feature, environment: string): Feature {
  return withEnvironment(feature, environment, (state) => ({ ...state, enabled: false }));
}

export function nextSortOrder(state: FeatureEnvironment): number {
  return state.strategies.reduce((max, strategy) => Math.max(max, strategy.sortOrder + 1), 0);
}

export function strategyIn(state: FeatureEnvironment, id: string): FeatureStrategy {
  const strategy = state.strategies.find((candidate) => candidate.id === id);
  if (!strategy) throw new NotFound(`Could not find strategy with id: ${id}`);
  return strategy;
}

export const bySortOrder = (a: FeatureStrategy, b: FeatureStrategy): number => a.sortOrder - b.sortOrder;
