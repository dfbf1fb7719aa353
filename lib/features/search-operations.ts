import type { OperationsFor } from '../http/operation.js';
import type { featureSearchRoutes } from './search-routes.js';
import type { FeatureServices } from './slice.js';
import { toSearchItemWire } from './search-wire.js';

/** The feature search (search-routes.ts). */
export const featureSearchOperations = ({ features }: { features: FeatureServices }): OperationsFor<typeof featureSearchRoutes> => ({
  searchFeatures: async ({ query, caller }) => {
    const { hits, total } = await features.search.search(query, () => features.people.favouriteFeaturesOf(caller));
    return { body: { features: hits.map(toSearchItemWire), total } };
  },
});
