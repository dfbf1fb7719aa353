import type { frontendRoutes } from './routes.js';
import type { OperationsFor, Reply } from '../http/operation.js';
import type { ClientMetricsService } from '../client/metrics-service.js';
import type { FrontendAnswer, FrontendService } from './service.js';

export interface FrontendServices {
  frontend: Pick<FrontendService, 'toggles'>;
  /** The SDK API's metrics path, which frontend SDKs report to as well. */
  usage: Pick<ClientMetricsService, 'recordMetrics' | 'register'>;
}

/**
 * The Frontend API. Frontend and admin tokens; the token decides the environment and projects.
 * CORS headers are added around the whole function (lib/frontend/cors.ts), errors included.
 */
export const frontendOperations = ({ frontend, usage }: FrontendServices): OperationsFor<typeof frontendRoutes> => ({
  getFrontendFeatures: async ({ caller, query, headers, sourceIp }) =>
    answered(await frontend.toggles(caller, query, sourceIp), headers['if-none-match']),
  // A POST is never answered 304, as in Unleash (Express validates GET and HEAD only).
  postFrontendFeatures: async ({ caller, body, sourceIp }) => answered(await frontend.toggles(caller, body.context ?? {}, sourceIp), undefined),
  reportFrontendMetrics: async ({ caller, body }) => {
    await usage.recordMetrics(caller, body);
    return {};
  },
  registerFrontendClient: async ({ caller, body }) => {
    await usage.register(caller, body);
    return {};
  },
  preflightFrontend: async () => ({}),
  preflightFrontendPath: async () => ({}),
});

function answered(answer: FrontendAnswer, ifNoneMatch: string | undefined): Reply<(typeof frontendRoutes)['getFrontendFeatures' | 'postFrontendFeatures']> {
  // Browsers must not reuse an answer without asking: the flags change while the page is open.
  const headers = { etag: answer.etag, 'cache-control': 'no-cache' };
  if (ifNoneMatch === answer.etag) return { status: 304, headers };
  return { json: answer.json, headers };
}
