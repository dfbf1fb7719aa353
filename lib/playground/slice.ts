import type { Slice, SliceContext } from '../slice.js';
import { playgroundOperations } from './operations.js';
import type { PlaygroundPorts } from './ports.js';
import { playgroundRoutes } from './routes.js';
import { PlaygroundService } from './service.js';

/**
 * The admin playground: flags evaluated for a context with the Frontend API's engine
 * (unleash-client), which only the function serving these rows (instance) loads.
 */
export function playgroundSlice(_context: SliceContext, ports: PlaygroundPorts) {
  const playground = new PlaygroundService(
    (projectIds) => ports.projectsFeatures(projectIds),
    { list: () => ports.segments() },
    () => ports.activeFeatureCount(),
    () => ports.everyFeature(),
  );
  return {
    routes: playgroundRoutes,
    operations: playgroundOperations({ playground }),
    playground,
  } satisfies Slice<typeof playgroundRoutes> & Record<string, unknown>;
}
