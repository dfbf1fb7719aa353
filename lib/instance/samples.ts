import { defineSamples } from '../samples.js';
import { instanceRoutes } from './routes.js';

export const instanceSamples = defineSamples(instanceRoutes, {
  'health': { operation: 'health', status: 200 },
  'ui-config': { operation: 'getUiConfig', status: 200 },
  'unknown-api-path': { operation: 'unknownApiPath', params: { proxy: 'admin/nowhere' }, status: 404 },
});
