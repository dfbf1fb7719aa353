import type { Slice, SliceContext } from '../slice.js';
import { DynamoUnknownFlagStore } from './dynamo-store.js';
import { unknownFlagOperations } from './operations.js';
import type { UnknownFlagPorts } from './ports.js';
import { unknownFlagRoutes } from './routes.js';
import { UnknownFlagService } from './service.js';

/** The names SDKs report that are no flag, as the metrics store stage recorded them (recorder.ts). */
export function unknownFlagSlice({ store, now }: SliceContext, ports: UnknownFlagPorts) {
  const unknownFlags = new UnknownFlagService(new DynamoUnknownFlagStore(store.db, store.tableName), ports.history, undefined, now);
  return {
    routes: unknownFlagRoutes,
    operations: unknownFlagOperations({ unknownFlags }),
    unknownFlags,
  } satisfies Slice<typeof unknownFlagRoutes> & Record<string, unknown>;
}
