import { clientRoutes } from '../../lib/api/routes/client.js';
import type { ClientFeaturesQuery } from '../../lib/api/schemas/client.js';
import { createClientServices, type ClientServices } from '../../lib/client-services.js';
import type { ServedPayload } from '../../lib/client/features-service.js';
import type { ClientRequest } from '../../lib/client/query.js';
import { loadConfig } from '../../lib/config.js';
import { acceptsGzip } from '../../lib/http/accept-encoding.js';
import type { GroupOperations, Reply } from '../../lib/http/operation.js';
import { buildRouter, lazyHandler } from '../../lib/http/router.js';

type SdkServices = Pick<ClientServices, 'clientFeatures' | 'clientMetrics'>;

/** The SDK API. Every route admits client, backend and admin tokens; the caller's token record scopes the answer. */
export const defineOperations = ({ clientFeatures, clientMetrics }: SdkServices): GroupOperations<'client'> => ({
  getClientFeatures: async ({ caller, query, headers, checkedRevision }) => {
    const answer = await clientFeatures.features(caller, toRequest(query, headers), headers['if-none-match'], checkedRevision);
    // 304 carries no body; the ETag repeats so caches along the way keep validating.
    if (!answer.modified) return { status: 304, headers: { etag: answer.etag, vary: 'Accept-Encoding' } };
    return storedBytes(answer.payload, acceptsGzip(headers['accept-encoding']));
  },
  getClientFeature: async ({ caller, query, headers, params, checkedRevision }) => ({
    body: await clientFeatures.feature(caller, toRequest(query, headers), params.featureName, checkedRevision),
  }),
  registerClient: async ({ caller, body }) => {
    await clientMetrics.register(caller, body);
    return {};
  },
  reportClientMetrics: async ({ caller, body }) => {
    await clientMetrics.recordMetrics(caller, body);
    return {};
  },
});

/**
 * The client function's entry: the SDK API's own rows and its slim composition root, so the
 * bundle carries neither the admin API's schemas nor its services (ADR 9).
 */
export const handler = lazyHandler(() => {
  const services = createClientServices(loadConfig(process.env));
  return buildRouter(clientRoutes, defineOperations(services), services.tokens, { namesActor: false });
});

/** The payload as stored: gzip bytes when the SDK accepts them (they all do), else the JSON text. */
function storedBytes(payload: ServedPayload, gzip: boolean): Reply<(typeof clientRoutes)['getClientFeatures']> {
  const headers = { etag: payload.etag, vary: 'Accept-Encoding' };
  if (gzip) return { base64: payload.gzipBase64, headers: { ...headers, 'content-encoding': 'gzip' } };
  return { json: payload.json, headers };
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
