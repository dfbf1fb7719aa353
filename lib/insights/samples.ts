import { defineSamples } from '../samples.js';
import { insightRoutes } from './routes.js';

export const insightSamples = defineSamples(insightRoutes, {
  'insights': { operation: 'getInsights', status: 200 },
});
