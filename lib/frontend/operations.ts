import type { frontendRoutes } from './routes.js';
import type { OperationsFor, Reply } from '../http/operation.js';
import type { ClientMetricsService } from '../client/metrics-service.js';
import { FrontendService, type FrontendAnswer } from './service.js';
import type { ClientFeatureService } from '../client/features-service.js';

export interface FrontendServices {
  clientFeatures: ClientFeatureService;
  clientMetrics: Pick<ClientMetricsService, 'recordMetrics' | 'register'>;
}

/**
 * The Frontend API. Frontend and admin tokens; the token decides the environment and projects.
 * CORS headers are added around the whole function (lib/frontend/cors.ts), errors included. The
 * evaluating service is made here, so only the processes that serve this group load the engine.
 */
export const frontendOperations = ({ clientFeatures, clientMetrics }: FrontendServices): OperationsFor<typeof frontendRoutes> => {
  const frontend = new FrontendService(clientFeatures);
  return {
    getFrontendFeatures: async ({ caller, query, headers, sourceIp }) =>
      answered(await frontend.toggles(caller, query, sourceIp), headers['if-none-match']),
    // A POST is never answered 304, as in Unleash (Express validates GET and HEAD only).
    postFrontendFeatures: async ({ caller, body, sourceIp }) => answered(await frontend.toggles(caller, body.context ?? {}, sourceIp), undefined),
    reportFrontendMetrics: async ({ caller, body }) => {
      await clientMetrics.recordMetrics(caller, body);
      return {};
    },
    registerFrontendClient: async ({ caller, body }) => {
      await clientMetrics.register(caller, body);
      return {};
    },
    preflightFrontend: async () => ({}),
    preflightFrontendPath: async () => ({}),
  };
};

function answered(answer: FrontendAnswer, ifNoneMatch: string | undefined): Reply<(typeof frontendRoutes)['getFrontendFeatures' | 'postFrontendFeatures']> {
  // Browsers must not reuse an answer without asking: the flags change while the page is open.
  const headers = { etag: answer.etag, 'cache-control': 'no-cache' };
  if (ifNoneMatch === answer.etag) return { status: 304, headers };
  return { json: answer.json, headers };
}
