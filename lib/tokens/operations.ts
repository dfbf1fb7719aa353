import type { apiTokenRoutes } from './routes.js';
import type { ApiTokenWire } from './schemas.js';
import type { OperationsFor } from '../http/operation.js';
import type { Services } from '../composition/services.js';
import { maskedSecretOf, type ApiToken } from './model.js';

export const apiTokenOperations = ({ apiTokens }: Services): OperationsFor<typeof apiTokenRoutes> => ({
  listApiTokens: async () => ({
    body: { tokens: (await apiTokens.list()).map((token) => toWire(token, maskedSecretOf(token))) },
  }),
  createApiToken: async ({ body }) => {
    const { secret, token } = await apiTokens.create({
      tokenName: (body.tokenName ?? body.username) as string,
      type: body.type,
      environment: body.environment,
      projects: body.projects ?? (body.project === undefined ? undefined : [body.project]),
      expiresAt: body.expiresAt,
    });
    return { body: toWire(token, secret), headers: { location: 'api-tokens' } };
  },
  deleteApiToken: async ({ params }) => {
    await apiTokens.delete(params.token);
    return {};
  },
});

/** `secret` is the whole secret only in the answer to a create; lists show its scope prefix. */
function toWire(token: ApiToken, secret: string): ApiTokenWire {
  return {
    secret,
    tokenId: token.tokenId,
    tokenName: token.tokenName,
    username: token.tokenName,
    type: token.type,
    environment: token.environment,
    project: token.projects.join(','),
    projects: token.projects,
    expiresAt: token.expiresAt,
    createdAt: token.createdAt,
    seenAt: token.seenAt,
    alias: null,
  };
}
