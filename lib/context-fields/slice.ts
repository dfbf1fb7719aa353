import type { Slice, SliceContext } from '../slice.js';
import { DynamoContextFieldStore } from './dynamo-store.js';
import { contextFieldOperations } from './operations.js';
import type { ContextFieldPorts } from './ports.js';
import { contextFieldRoutes } from './routes.js';
import { ContextFieldService } from './service.js';

/** Context fields: the names constraints may test, with their legal values. */
export function contextFieldSlice({ store }: SliceContext, ports: ContextFieldPorts) {
  const contextFields = new ContextFieldService(new DynamoContextFieldStore(store.db, store.tableName), ports.everyFeature);
  return {
    routes: contextFieldRoutes,
    operations: contextFieldOperations({ contextFields }, ports),
    contextFields,
  } satisfies Slice<typeof contextFieldRoutes> & Record<string, unknown>;
}
