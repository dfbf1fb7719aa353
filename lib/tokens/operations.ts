import type { Services } from '../composition/services.js';
import type { OperationsFor } from '../http/operation.js';
import { maskedSecretOf } from './model.js';
import type { apiTokenRoutes } from './routes.js';
import { toApiTokenWire } from './wire.js';

export const apiTokenOperations = ({ apiTokens }: Services): OperationsFor<typeof apiTokenRoutes> => ({
  listApiTokens: async () => ({
    body: { tokens: (await apiTokens.list()).map((token) => toApiTokenWire(token, maskedSecretOf(token))) },
  }),
  listProjectApiTokens: async ({ params }) => ({
    body: {
      tokens: (await apiTokens.list())
        .filter((token) => token.projects.includes(params.projectId))
        .map((token) => toApiTokenWire(token, maskedSecretOf(token))),
    },
  }),
  createApiToken: async ({ body }) => {
    const { secret, token } = await apiTokens.create({
      tokenName: (body.tokenName ?? body.username) as string,
      type: body.type,
      environment: body.environment,
      projects: body.projects ?? (body.project === undefined ? undefined : [body.project]),
      expiresAt: body.expiresAt,
    });
    return { body: toApiTokenWire(token, secret), headers: { location: 'api-tokens' } };
  },
  deleteApiToken: async ({ params }) => {
    await apiTokens.delete(params.token);
    return {};
  },
});
