import { defineSamples } from '../samples.js';
import { instanceRoutes } from './routes.js';

export const instanceSamples = defineSamples(instanceRoutes, {
  'health': { operation: 'health', status: 200 },
  'ui-config': { operation: 'getUiConfig', status: 200 },
  'instance-statistics': { operation: 'getInstanceStatistics', status: 200 },
  'record-ui-error': { operation: 'recordUiError', body: { errorMessage: 'Sample: a component failed to render' }, status: 204 },
  'unknown-api-path': { operation: 'unknownApiPath', params: { proxy: 'admin/nowhere' }, status: 404 },
});
