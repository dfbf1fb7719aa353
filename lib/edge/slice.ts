import type { Slice, SliceContext } from '../slice.js';
import { DynamoValidationCountStore } from './dynamo-store.js';
import { EDGE_VALIDATION, type EdgeValidationLimits } from './model.js';
import { edgeOperations } from './operations.js';
import type { EdgePorts } from './ports.js';
import { edgeRoutes } from './routes.js';
import { EdgeTokenValidation, EdgeUsage } from './service.js';

/**
 * Unleash Edge's upstream endpoints: token validation, counted per address in the table, and
 * bulk usage through the SDK API's own rules. `limits`: a test's smaller validation rate.
 */
export function edgeSlice({ store, now }: SliceContext, ports: EdgePorts, limits: { validation?: EdgeValidationLimits } = {}) {
  const edgeTokens = new EdgeTokenValidation(ports.tokens, new DynamoValidationCountStore(store.db, store.tableName), now, limits.validation ?? EDGE_VALIDATION);
  const edgeUsage = new EdgeUsage(ports.usage, now);
  return {
    routes: edgeRoutes,
    operations: edgeOperations({ edgeTokens, edgeUsage }),
    edgeTokens,
    edgeUsage,
  } satisfies Slice<typeof edgeRoutes> & Record<string, unknown>;
}
