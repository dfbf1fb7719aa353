import type { Slice, SliceContext } from '../slice.js';
import { uiSupportOperations } from './operations.js';
import type { UiSupportPorts } from './ports.js';
import { uiSupportRoutes } from './routes.js';
import { UiSupportService } from './service.js';

/** What the admin UI's pages need besides the resources themselves. */
export function uiSupportSlice(_context: SliceContext, ports: UiSupportPorts) {
  const uiSupport = new UiSupportService(
    { getProject: (projectId) => ports.project(projectId), activeFeatureCount: () => ports.activeFeatureCount() },
    { listProject: (projectId) => ports.projectFeatures(projectId) },
  );
  return {
    routes: uiSupportRoutes,
    operations: uiSupportOperations({ uiSupport }, ports),
    uiSupport,
  } satisfies Slice<typeof uiSupportRoutes> & Record<string, unknown>;
}
