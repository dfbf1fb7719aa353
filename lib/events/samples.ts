import { defineSamples } from '../samples.js';
import { eventRoutes } from './routes.js';

export const eventSamples = defineSamples(eventRoutes, {
  'search-events': { operation: 'searchEvents', query: { type: 'IS_ANY_OF:feature-created,feature-environment-enabled', limit: '25' }, status: 200 },
  'search-events-bad-date': { operation: 'searchEvents', query: { from: 'IS:2026-02-30' }, status: 400 },
  // `features/create-feature` makes sample-feature-{{UNIQUE}}, so its event log holds its creation.
  'feature-events': { operation: 'getFeatureEvents', params: { featureName: 'sample-feature-{{UNIQUE}}' }, given: ['features/create-feature'], status: 200 },
});
