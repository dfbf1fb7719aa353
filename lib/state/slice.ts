import type { Slice, SliceContext } from '../slice.js';
import { stateOperations } from './operations.js';
import type { StateCatalog } from './ports.js';
import { stateRoutes } from './routes.js';
import { StateExportService } from './service.js';

/** The whole instance's export (E10), as JSON data or YAML text. */
export function stateSlice(_context: SliceContext, ports: StateCatalog) {
  const state = new StateExportService(ports);
  return {
    routes: stateRoutes,
    operations: stateOperations({ state }),
    state,
  } satisfies Slice<typeof stateRoutes> & Record<string, unknown>;
}
