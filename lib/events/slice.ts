import type { Slice, SliceContext } from '../slice.js';
import { eventOperations } from './operations.js';
import type { EventPorts } from './ports.js';
import { eventRoutes } from './routes.js';
import { EventSearchService } from './service.js';

/** The event log (Unleash's event search) over the change events the stores record, read through the process's kept months. */
export function eventSlice(_context: SliceContext, { events }: EventPorts) {
  const eventSearch = new EventSearchService(events);
  return {
    routes: eventRoutes,
    operations: eventOperations({ eventSearch }),
    eventSearch,
  } satisfies Slice<typeof eventRoutes> & Record<string, unknown>;
}
