import type { MaintenanceService } from './service.js';

/**
 * The process's one maintenance flag: the admin edge reads it to refuse changes, so the toggle
 * must reach the same object for this container to know at once (lib/composition/session-edge.ts).
 */
export interface MaintenancePorts {
  maintenance: MaintenanceService;
}
