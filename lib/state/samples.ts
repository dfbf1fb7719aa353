import { defineSamples } from '../samples.js';
import { stateRoutes } from './routes.js';

export const stateSamples = defineSamples(stateRoutes, {
  'export-json': { operation: 'exportState', query: { format: 'json', tags: 'false' }, status: 200 },
  'export-yaml-download': { operation: 'exportState', query: { format: 'yaml', download: 'true' }, status: 200 },
});
