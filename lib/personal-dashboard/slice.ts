import type { Slice, SliceContext } from '../slice.js';
import { personalDashboardOperations } from './operations.js';
import type { PersonalDashboardPorts } from './ports.js';
import { personalDashboardRoutes } from './routes.js';
import { PersonalDashboardService } from './service.js';

/** The person's dashboard and profile, read from other resources' stores through its ports. */
export function personalDashboardSlice({ now }: SliceContext, ports: PersonalDashboardPorts) {
  const personalDashboard = new PersonalDashboardService(ports, now);
  return {
    routes: personalDashboardRoutes,
    operations: personalDashboardOperations({ personalDashboard }),
    personalDashboard,
  } satisfies Slice<typeof personalDashboardRoutes> & Record<string, unknown>;
}
