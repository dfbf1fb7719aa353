import type { ClientFeaturesQuery } from '../../lib/api/schemas/client.js';
import type { ClientRequest } from '../../lib/client/query.js';
import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';
import type { Services } from '../../lib/services.js';

/** The SDK API. Every route admits client, backend and admin tokens; the caller's token record scopes the answer. */
export const defineOperations = ({ clientFeatures, clientMetrics }: Services): GroupOperations<'client'> => ({
  getClientFeatures: async ({ caller, query, headers }) => {
    const answer = await clientFeatures.features(caller, toRequest(query, headers), headers['if-none-match']);
    // 304 carries no body; the ETag repeats so caches along the way keep validating.
    if (!answer.modified) return { status: 304, headers: { etag: answer.etag } };
    return { json: answer.json, headers: { etag: answer.etag } };
  },
  getClientFeature: async ({ caller, query, headers, params }) => ({
    body: await clientFeatures.feature(caller, toRequest(query, headers), params.featureName),
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

export const handler = groupHandler('client', defineOperations);

function toRequest(query: ClientFeaturesQuery, headers: Record<string, string | undefined>): ClientRequest {
  return {
    projects: query.project,
    namePrefix: query.namePrefix,
    tags: query.tag,
    environment: query.environment,
    clientSpec: headers['unleash-client-spec'],
  };
}
