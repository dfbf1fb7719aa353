import { stringify } from 'yaml';
import type { Environment } from '../environments/model.js';
import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import { averageDaysToProduction } from '../insights/time-to-production.js';
import { isPotentiallyStale } from '../projects/health.js';
import type { ProjectSummary } from '../projects/model.js';
import type { Segment } from '../segments/model.js';
import type { StrategyType } from '../strategies/model.js';
import type { TagType } from '../tag-types/model.js';
import type { ApiToken } from '../tokens/model.js';

export interface StateParts {
  strategies: boolean;
  featureToggles: boolean;
  projects: boolean;
  tags: boolean;
  environments: boolean;
}

/** Everything the state export reads, gathered by the caller. */
export interface StateSources {
  features: readonly Feature[];
  strategyTypes: StrategyType[];
  projects: ProjectSummary[];
  tagTypes: TagType[];
  environments: Environment[];
  tokens: ApiToken[];
  segments: Segment[];
  events: ChangeEvent[];
}

/** The state export's format version, as in the last Unleash that had it. */
export const STATE_VERSION = 4;

/**
 * E10 (deprecated). Active features only, custom strategy types only (built-ins exist on every
 * instance), segments always; the include flags leave out whole sections.
 */
export function buildState(parts: StateParts, sources: StateSources, now: Date) {
  const features = sources.features.filter((feature) => !feature.archived);
  const production = new Set(sources.environments.filter((e) => e.type === 'production').map((e) => e.name));
  const strategies = features.flatMap((feature) =>
    Object.entries(feature.environments).flatMap(([environment, state]) =>
      state.strategies.map((strategy) => ({ feature, environment, strategy })),
    ),
  );
  return {
    version: STATE_VERSION,
    ...(parts.featureToggles && {
      features: features.map(({ name, description, type, project, stale, impressionData, archived, createdAt }) => ({
        name, description, type, project, stale, impressionData, archived, createdAt,
      })),
      featureStrategies: strategies.map(({ feature, environment, strategy }) => ({
        id: strategy.id, featureName: feature.name, projectId: feature.project, environment, strategyName: strategy.name,
        title: strategy.title, parameters: strategy.parameters, constraints: strategy.constraints, variants: strategy.variants,
        sortOrder: strategy.sortOrder, disabled: strategy.disabled,
      })),
      featureEnvironments: features.flatMap((feature) =>
        Object.entries(feature.environments).map(([environment, state]) => ({
          featureName: feature.name, environment, enabled: state.enabled, variants: state.variants,
        })),
      ),
      featureStrategySegments: strategies.flatMap(({ strategy }) =>
        strategy.segments.map((segmentId) => ({ segmentId, featureStrategyId: strategy.id })),
      ),
    }),
    ...(parts.strategies && { strategies: sources.strategyTypes.filter((type) => type.editable).map(strategyTypeOf) }),
    ...(parts.projects && { projects: sources.projects.map((project) => projectOf(project, features, sources.events, production, now)) }),
    ...(parts.tags && {
      tagTypes: sources.tagTypes,
      tags: uniqueTags(features),
      featureTags: features.flatMap((f) => f.tags.map((tag) => ({ featureName: f.name, tagType: tag.type, tagValue: tag.value, createdByUserId: null }))),
    }),
    ...(parts.environments && { environments: sources.environments.map((e) => environmentOf(e, sources, features)) }),
    segments: sources.segments.map(({ id, name, constraints, description, createdAt, createdBy, project }) => ({
      id, name, constraints, description, createdAt, createdBy, project,
    })),
  };
}

export function stateAsYaml(state: ReturnType<typeof buildState>): string {
  return stringify(state);
}

function strategyTypeOf({ name, title, displayName, description, editable, deprecated, parameters }: StrategyType) {
  return { name, title, displayName, description, editable, deprecated, parameters };
}

function projectOf(project: ProjectSummary, features: Feature[], events: ChangeEvent[], production: Set<string>, now: Date) {
  const own = features.filter((feature) => feature.project === project.id);
  return {
    id: project.id, name: project.name, description: project.description, health: project.health,
    featureCount: own.length,
    staleFeatureCount: own.filter((feature) => feature.stale).length,
    potentiallyStaleFeatureCount: own.filter((feature) => isPotentiallyStale(feature, now)).length,
    memberCount: 0, createdAt: project.createdAt, updatedAt: project.updatedAt, favorite: false,
    mode: project.mode, defaultStickiness: project.defaultStickiness,
    avgTimeToProduction: averageDaysToProduction(own, events, production),
  };
}

function environmentOf(environment: Environment, sources: StateSources, features: Feature[]) {
  const { name, type, enabled, sortOrder } = environment;
  return {
    name, type, enabled, protected: environment.protected, sortOrder,
    projectCount: sources.projects.filter((project) => project.environments.includes(name)).length,
    apiTokenCount: sources.tokens.filter((token) => token.environment === name).length,
    enabledToggleCount: features.filter((feature) => feature.environments[name]?.enabled).length,
  };
}

function uniqueTags(features: Feature[]) {
  const tags = new Map<string, { type: string; value: string }>();
  for (const tag of features.flatMap((feature) => feature.tags)) tags.set(`${tag.type}:${tag.value}`, { type: tag.type, value: tag.value });
  return [...tags.values()];
}
