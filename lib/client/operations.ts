import type { clientRoutes } from './routes.js';
import type { ClientFeaturesQuery } from './schemas.js';
import { NotFound } from '../errors.js';
import type { ClientFeatureService, ServedPayload } from './features-service.js';
import type { ClientMetricsService } from './metrics-service.js';
import type { ClientRequest } from './query.js';
import { acceptsGzip } from '../http/accept-encoding.js';
import { answerTooLarge, LAMBDA_MAX_RESPONSE_BYTES } from '../http/large-answers.js';
import type { OperationsFor, Reply } from '../http/operation.js';

interface SdkServices {
  clientFeatures: ClientFeatureService;
  clientMetrics: Pick<ClientMetricsService, 'recordMetrics' | 'register'>;
}

/** The SDK API. Every route admits client, backend and admin tokens; the caller's token record scopes the answer. */
export const clientOperations = ({ clientFeatures, clientMetrics }: SdkServices): OperationsFor<typeof clientRoutes> => ({
  getClientFeatures: async ({ caller, query, headers, checkedRevision }) => {
    const answer = await clientFeatures.features(caller, toRequest(query, headers), headers['if-none-match'], checkedRevision);
    // 304 carries no body; the ETag repeats so caches along the way keep validating.
    if (!answer.modified) return { status: 304, headers: { etag: answer.etag, vary: 'Accept-Encoding' } };
    return storedBytes(answer.payload, acceptsGzip(headers['accept-encoding']));
  },
  getClientFeature: async ({ caller, query, headers, params, checkedRevision }) => ({
    body: await clientFeatures.feature(caller, toRequest(query, headers), params.featureName, checkedRevision),
  }),
  getClientDelta: async ({ caller, query, headers, checkedRevision }) => {
    const answer = await clientFeatures.delta(caller, toRequest(query, headers), headers['if-none-match'], checkedRevision);
    if (!answer.modified) return { status: 304, headers: { etag: answer.etag, vary: 'Accept-Encoding' } };
    if ('events' in answer) return { json: answer.events, headers: { etag: answer.etag, vary: 'Accept-Encoding' } };
    return storedBytes(answer.payload, acceptsGzip(headers['accept-encoding']));
  },
  streamClientFeatures: async () => {
    throw new NotFound('This server does not stream (API Gateway cannot hold a connection open): poll /api/client/delta or /api/client/features');
  },
  registerClient: async ({ caller, body }) => {
    await clientMetrics.register(caller, body);
    return {};
  },
  reportClientMetrics: async ({ caller, body }) => {
    await clientMetrics.recordMetrics(caller, body);
    return {};
  },
});

/** The payload as stored: gzip bytes when the SDK accepts them (they all do), else the JSON text. */
function storedBytes(payload: ServedPayload, gzip: boolean): Reply<(typeof clientRoutes)['getClientFeatures' | 'getClientDelta']> {
  // Literal headers, in the answer's order: every gzip poll makes them, and copying another object showed in its profile.
  if (gzip) return { base64: payload.gzipBase64, headers: { etag: payload.etag, vary: 'Accept-Encoding', 'content-encoding': 'gzip' } };
  const headers = { etag: payload.etag, vary: 'Accept-Encoding' };
  // Known from the gzip trailer: a payload too large for Lambda is refused before its text is made.
  if (payload.jsonBytes > LAMBDA_MAX_RESPONSE_BYTES) throw answerTooLarge(payload.jsonBytes, false);
  return { json: payload.json, jsonSize: { utf8Bytes: payload.jsonBytes, quotedBytes: payload.quotedJsonBytes }, headers };
}

function toRequest(query: ClientFeaturesQuery, headers: Record<string, string | undefined>): ClientRequest {
  return {
    projects: query.project,
    namePrefix: query.namePrefix,
    tags: query.tag,
    environment: query.environment,
    clientSpec: headers['unleash-client-spec'],
  };
}
