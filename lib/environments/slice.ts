import type { Slice, SliceContext } from '../slice.js';
import { DynamoEnvironmentStore } from './dynamo-store.js';
import { environmentOperations } from './operations.js';
import type { EnvironmentPorts } from './ports.js';
import { environmentRoutes } from './routes.js';
import { EnvironmentService } from './service.js';

/** The instance's environments, and how each project uses them. */
export function environmentSlice({ store }: SliceContext, ports: EnvironmentPorts) {
  const environments = new EnvironmentService(new DynamoEnvironmentStore(store.db, store.tableName));
  return {
    routes: environmentRoutes,
    operations: environmentOperations({ environments }, ports),
    environments,
  } satisfies Slice<typeof environmentRoutes> & Record<string, unknown>;
}
