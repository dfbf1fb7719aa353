import type { FeatureViewContext } from '../features/model.js';
import { toFeatureWire } from '../features/wire.js';
import type { DefaultStrategy, FeatureNaming, Project } from './model.js';
import type { OnboardingStatus } from './onboarding.js';
import { toDefaultStrategyWire } from '../environments/wire.js';

export { toDefaultStrategyWire };
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
export function toProjectOverviewWire(overview: ProjectOverview, contexts: FeatureViewContext[]) {
  return {
    ...toProjectHeaderWire(overview),
    features: overview.features.map((feature, index) => toFeatureWire(feature, contexts[index] as FeatureViewContext)),
  };
}

/**
 * The project page's header (/overview): no features, how many of each type are listed instead,
 * and Unleash's fields this service has no model for (link templates, project archiving) empty.
 */
export function toProjectSummaryWire(overview: ProjectOverview, onboardingStatus: OnboardingStatus) {
  const counts = new Map<string, number>();
  for (const { type } of overview.features) counts.set(type, (counts.get(type) ?? 0) + 1);
  return {
    ...toProjectHeaderWire(overview),
    linkTemplates: [],
    technicalDebt: 100 - overview.health,
    featureTypeCounts: [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([type, count]) => ({ type, count })),
    archivedAt: null,
    onboardingStatus,
  };
}

function toProjectHeaderWire({ project, environments, health, members }: ProjectOverview) {
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
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
    favorite: false,
  };
}
