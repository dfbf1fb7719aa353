import type { OperationsFor } from '../http/operation.js';
import type { maintenanceRoutes } from './routes.js';
import type { MaintenanceService } from './service.js';

export function maintenanceOperations({ maintenance }: { maintenance: MaintenanceService }): OperationsFor<typeof maintenanceRoutes> {
  return {
    getMaintenance: async () => ({ body: await maintenance.get() }),
    toggleMaintenance: async ({ body, caller }) => {
      await maintenance.set(body.enabled, caller.tokenName);
      return {};
    },
  };
}
