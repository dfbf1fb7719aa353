import type { Slice, SliceContext } from '../slice.js';
import { FeatureAggregates } from './aggregate.js';
import type { DynamoFeatureStore } from './dynamo-store.js';
import { featureEnvironmentRoutes } from './environment-routes.js';
import { FeatureLifecycleService } from './lifecycle-service.js';
import {
  featureEnvironmentOperations,
  featureOperations,
  featureRelationOperations,
  featureUsageOperations,
  featureValidationOperations,
} from './operations.js';
import type { FeaturePorts } from './ports.js';
import { featureRelationRoutes } from './relation-routes.js';
import { FeatureRelationService } from './relation-service.js';
import { featureRoutes } from './routes.js';
import { featureSearchOperations } from './search-operations.js';
import { featureSearchRoutes } from './search-routes.js';
import { FeatureSearchService } from './search-service.js';
import { FeatureStrategyService } from './strategy-service.js';
import { FeatureUsageService } from './usage-service.js';
import { featureUsageRoutes } from './usage-routes.js';
import { featureValidationRoutes } from './validation-routes.js';
import { featureStageRoutes } from './stage-routes.js';
import { featureStageOperations } from './stage-operations.js';
import { FeatureStageService } from './stage-service.js';
import { FeatureLinkService } from './link-service.js';
import { FeatureBulkService } from './bulk-service.js';
import { DynamoFeatureTypeStore } from './dynamo-feature-type-store.js';
import { FeatureTypeService, type FeatureTypeStore } from './feature-type-service.js';
import { FeatureVariantService } from './variant-service.js';
import { FeatureViews } from './views.js';

/** Every row the feature slice serves: a feature's life, its environments, relations, search, the UI's checks, its usage. */
const routes = {
  ...featureRoutes,
  ...featureEnvironmentRoutes,
  ...featureRelationRoutes,
  ...featureSearchRoutes,
  ...featureValidationRoutes,
  ...featureUsageRoutes,
  ...featureStageRoutes,
};

/**
 * Features with their strategies, variants and relations, and their search and usage. The feature
 * adapter is the process's one (`featureStore`): other slices' ports and the SDK snapshot read
 * through it too, and it remembers once per process that the project copies are ready.
 */
export function featureSlice({ now, store }: SliceContext, ports: FeaturePorts, featureStore: DynamoFeatureStore) {
  const features = featureServices(featureStore, new DynamoFeatureTypeStore(store.db, store.tableName), ports, now);
  return {
    routes,
    operations: {
      ...featureOperations({ features }),
      ...featureEnvironmentOperations({ features }),
      ...featureRelationOperations({ features }),
      ...featureSearchOperations({ features }),
      ...featureValidationOperations({ features }),
      ...featureUsageOperations({ features }),
      ...featureStageOperations({ features }),
    },
    features,
  } satisfies Slice<typeof routes> & Record<string, unknown>;
}

/** The feature services, sharing one optimistic-concurrency runner over the store; `now` is a test's clock for the usage reads, which name the current hour. */
function featureServices(
  featureStore: DynamoFeatureStore, featureTypeStore: FeatureTypeStore, { catalog, metrics, everyFeature, searchReadModel, people, projectFeatures }: FeaturePorts, now: (() => Date) | undefined,
) {
  const featureTypes = new FeatureTypeService(featureTypeStore);
  const aggregates = new FeatureAggregates(featureStore);
  const strategies = new FeatureStrategyService(aggregates, catalog);
  const relations = new FeatureRelationService(aggregates, catalog, projectFeatures);
  return {
    aggregates,
    lifecycle: new FeatureLifecycleService(aggregates, catalog),
    strategies,
    variants: new FeatureVariantService(aggregates, catalog),
    relations,
    stages: new FeatureStageService(aggregates, everyFeature),
    links: new FeatureLinkService(aggregates),
    bulk: new FeatureBulkService(aggregates, strategies, relations),
    views: new FeatureViews(catalog, metrics),
    search: new FeatureSearchService(featureStore, catalog, metrics, searchReadModel, () => featureTypes.lifetimes()),
    featureTypes,
    usage: new FeatureUsageService(featureStore, metrics, now),
    people,
  };
}

export type FeatureServices = ReturnType<typeof featureServices>;
