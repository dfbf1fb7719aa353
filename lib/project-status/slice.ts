import type { Slice, SliceContext } from '../slice.js';
import { projectStatusOperations } from './operations.js';
import type { ProjectStatusPorts } from './ports.js';
import { projectStatusRoutes } from './routes.js';
import { ProjectStatusService } from './service.js';

/** A project's status page, flag creators and outdated SDKs, read from other resources' stores through its ports. */
export function projectStatusSlice({ now }: SliceContext, ports: ProjectStatusPorts) {
  const projectStatus = new ProjectStatusService(ports, now);
  return {
    routes: projectStatusRoutes,
    operations: projectStatusOperations({ projectStatus }),
    projectStatus,
  } satisfies Slice<typeof projectStatusRoutes> & Record<string, unknown>;
}
