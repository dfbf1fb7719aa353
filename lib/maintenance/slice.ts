import type { Slice, SliceContext } from '../slice.js';
import { maintenanceOperations } from './operations.js';
import type { MaintenancePorts } from './ports.js';
import { maintenanceRoutes } from './routes.js';

/** Maintenance mode's page; the refusal of changes is the admin edge's, on the same service. */
export function maintenanceSlice(_context: SliceContext, { maintenance }: MaintenancePorts) {
  return {
    routes: maintenanceRoutes,
    operations: maintenanceOperations({ maintenance }),
    maintenance,
  } satisfies Slice<typeof maintenanceRoutes> & Record<string, unknown>;
}
