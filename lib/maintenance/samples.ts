import { defineSamples } from '../samples.js';
import { maintenanceRoutes } from './routes.js';

export const maintenanceSamples = defineSamples(maintenanceRoutes, {
  // Turning it off: a sample run must leave the instance open to changes.
  'maintenance-off': { operation: 'toggleMaintenance', body: { enabled: false }, status: 204 },
  'maintenance-not-boolean': { operation: 'toggleMaintenance', body: { enabled: 'yes' }, status: 400 },
});
