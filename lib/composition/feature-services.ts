import { FeatureAggregates } from '../features/aggregate.js';
import { FeatureLifecycleService } from '../features/lifecycle-service.js';
import type { FeatureCatalog, LastSeenReader } from '../features/ports.js';
import { FeatureRelationService } from '../features/relation-service.js';
import type { FeatureStore } from '../features/store.js';
import { FeatureStrategyService } from '../features/strategy-service.js';
import { FeatureVariantService } from '../features/variant-service.js';
import { FeatureViews } from '../features/views.js';

/** The feature services, sharing one optimistic-concurrency runner over the store. */
export function createFeatureServices(store: FeatureStore, catalog: FeatureCatalog, lastSeen: LastSeenReader) {
  const aggregates = new FeatureAggregates(store);
  return {
    aggregates,
    lifecycle: new FeatureLifecycleService(aggregates, catalog),
    strategies: new FeatureStrategyService(aggregates, catalog),
    variants: new FeatureVariantService(aggregates, catalog),
    relations: new FeatureRelationService(aggregates, catalog),
    views: new FeatureViews(catalog, lastSeen),
  };
}

export type FeatureServices = ReturnType<typeof createFeatureServices>;
