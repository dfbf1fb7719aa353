import type { OperationsFor } from '../http/operation.js';
import type { edgeRoutes } from './routes.js';
import type { EdgeTokenValidation, EdgeUsage } from './service.js';

interface EdgeServices {
  edgeTokens: EdgeTokenValidation;
  edgeUsage: EdgeUsage;
}

/** Unleash Edge's upstream endpoints. */
export const edgeOperations = ({ edgeTokens, edgeUsage }: EdgeServices): OperationsFor<typeof edgeRoutes> => ({
  validateEdgeTokens: async ({ body, sourceIp }) => ({ body: { tokens: await edgeTokens.validate(body.tokens, sourceIp) } }),
  reportBulkMetrics: async ({ caller, body }) => {
    await edgeUsage.recordBulk(caller, body);
    return {};
  },
  reportEdgeInstance: async ({ caller, body }) => {
    await edgeUsage.recordInstance(caller, body);
    return {};
  },
});
