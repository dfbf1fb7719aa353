import { FeatureAggregates } from './aggregate.js';
import { FeatureLifecycleService } from './lifecycle-service.js';
import type { FeatureCatalog, LastSeenReader } from './ports.js';
import { FeatureRelationService } from './relation-service.js';
import type { FeatureStore } from './store.js';
import { FeatureStrategyService } from './strategy-service.js';
import { FeatureVariantService } from './variant-service.js';
import { FeatureViews } from './views.js';

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
