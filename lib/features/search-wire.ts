import { environmentOf } from './model.js';
import type { FeatureSearchItemWire } from './search-schemas.js';
import { lastSeenOf } from './search-model.js';
import { lifecycleWire } from './wire.js';
import type { SearchHit } from './search-service.js';

/** Unleash's answer for a creator it does not know: id 0, which the admin UI shows without a link. */
const UNKNOWN_CREATOR = { id: 0, name: 'unknown', imageUrl: '' };

/** A page item as Unleash's featureSearchResponseSchema has it. */
export function toSearchItemWire({ feature, favorite, environments, lastSeen, segmentNames }: SearchHit): FeatureSearchItemWire {
  return {
    name: feature.name,
    type: feature.type,
    description: feature.description,
    dependencyType: feature.children.length > 0 ? 'parent' : feature.dependencies.length > 0 ? 'child' : null,
    project: feature.project,
    stale: feature.stale,
    favorite,
    impressionData: feature.impressionData,
    createdAt: feature.createdAt,
    archivedAt: feature.archivedAt,
    lastSeenAt: lastSeenOf(lastSeen),
    createdBy: feature.createdBy ?? UNKNOWN_CREATOR,
    environments: environments.map((environment) => {
      const state = environmentOf(feature, environment.name);
      return {
        name: environment.name,
        enabled: state.enabled,
        type: environment.type,
        sortOrder: environment.sortOrder,
        variantCount: state.variants.length,
        lastSeenAt: lastSeen[environment.name] ?? null,
        hasStrategies: state.strategies.length > 0,
        hasEnabledStrategies: state.strategies.some((strategy) => !strategy.disabled),
        changeRequestIds: [],
      };
    }),
    segments: segmentNames,
    tags: feature.tags.map((tag) => ({ value: tag.value, type: tag.type })),
    lifecycle: lifecycleWire(feature),
  };
}
