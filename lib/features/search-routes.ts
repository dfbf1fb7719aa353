import { admin, defineRoutes } from '../http/route.js';
import { featureSearchQuerySchema, searchFeaturesSchema } from './search-schemas.js';

/** Unleash's paginated feature search: what the admin UI lists features with, and what replaces E15. */
export const featureSearchRoutes = defineRoutes('features', {
  searchFeatures: {
    method: 'GET', path: '/api/admin/search/features', access: admin('READ_FEATURE'), status: 200,
    summary: 'Search features: filters (OPERATOR:value), sort, and a page of at most 100 (offset, limit)',
    query: featureSearchQuerySchema, response: searchFeaturesSchema,
  },
});
