import type { Slice, SliceContext } from '../slice.js';
import { DynamoEventStore } from './dynamo-store.js';
import { eventOperations } from './operations.js';
import type { EventPorts } from './ports.js';
import { eventRoutes } from './routes.js';
import { EventSearchService } from './service.js';
import { SettledMonths } from './settled-months.js';

/** The event log (Unleash's event search) over the change events the stores record, each month's settled events kept in the container. */
export function eventSlice({ store }: SliceContext, _ports: EventPorts) {
  const eventSearch = new EventSearchService(new SettledMonths(new DynamoEventStore(store.db, store.tableName)));
  return {
    routes: eventRoutes,
    operations: eventOperations({ eventSearch }),
    eventSearch,
  } satisfies Slice<typeof eventRoutes> & Record<string, unknown>;
}
