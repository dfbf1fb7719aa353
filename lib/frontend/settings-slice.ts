import type { Slice, SliceContext } from '../slice.js';
import { frontendSettingsOperations } from './settings-operations.js';
import type { FrontendSettingsPorts } from './ports.js';
import { frontendSettingsRoutes } from './settings-routes.js';

/** The Frontend API's settings (POST /api/admin/ui-config/cors), served by the access function. */
export function frontendSettingsSlice(_context: SliceContext, { origins }: FrontendSettingsPorts) {
  return {
    routes: frontendSettingsRoutes,
    operations: frontendSettingsOperations({ frontendOrigins: origins }),
  } satisfies Slice<typeof frontendSettingsRoutes>;
}
