import type { Slice, SliceContext } from '../slice.js';
import { applicationOperations } from './operations.js';
import type { ApplicationPorts } from './ports.js';
import { applicationRoutes } from './routes.js';
import { ApplicationService } from './service.js';

/** The applications SDKs registered, for the admin UI's Applications pages. */
export function applicationSlice({ now }: SliceContext, ports: ApplicationPorts) {
  const applications = new ApplicationService(ports.registrations, now);
  return {
    routes: applicationRoutes,
    operations: applicationOperations({ applications }),
    applications,
  } satisfies Slice<typeof applicationRoutes> & Record<string, unknown>;
}
