import type { Slice, SliceContext } from '../slice.js';
import { DynamoStrategyTypeStore } from './dynamo-store.js';
import { strategyTypeOperations } from './operations.js';
import type { StrategyPorts } from './ports.js';
import { strategyTypeRoutes } from './routes.js';
import { StrategyTypeService } from './service.js';

/** Strategy types: the built-in ones with their deprecation, and custom ones (E2). */
export function strategySlice({ store }: SliceContext, ports: StrategyPorts) {
  const strategyTypes = new StrategyTypeService(new DynamoStrategyTypeStore(store.db, store.tableName), ports);
  return {
    routes: strategyTypeRoutes,
    operations: strategyTypeOperations({ strategyTypes }),
    strategyTypes,
  } satisfies Slice<typeof strategyTypeRoutes> & Record<string, unknown>;
}
