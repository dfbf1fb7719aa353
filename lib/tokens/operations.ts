import type { OperationsFor } from '../http/operation.js';
import { listedSecretOf, type ApiToken, type Caller } from './model.js';
import { isUserCaller } from '../http/caller.js';
import { ROOT_ROLE } from '../roles/model.js';
import type { apiTokenRoutes } from './routes.js';
import type { ApiTokenService } from './service.js';
import { toApiTokenWire } from './wire.js';

export const apiTokenOperations = ({ apiTokens }: { apiTokens: ApiTokenService }): OperationsFor<typeof apiTokenRoutes> => ({
  listApiTokens: async ({ caller }) => ({
    body: { tokens: (await apiTokens.list()).filter(visibleTo(caller)).map((token) => toApiTokenWire(token, listedSecretOf(token))) },
  }),
  listProjectApiTokens: async ({ caller, params }) => ({
    body: {
      tokens: (await apiTokens.list())
        .filter((token) => token.projects.includes(params.projectId))
        .filter(visibleTo(caller))
        .map((token) => toApiTokenWire(token, listedSecretOf(token))),
    },
  }),
  createApiToken: async ({ body }) => {
    const { secret, token } = await apiTokens.create({
      tokenName: (body.tokenName ?? body.username) as string,
      type: body.type,
      environment: body.environment,
      projects: body.projects ?? (body.project === undefined ? undefined : [body.project]),
      expiresAt: body.expiresAt,
      secret: body.secret,
    });
    return { body: toApiTokenWire(token, secret), headers: { location: 'api-tokens' } };
  },
  createProjectApiToken: async ({ params, body }) => {
    const { secret, token } = await apiTokens.create({
      tokenName: body.tokenName,
      type: body.type,
      environment: body.environment,
      projects: [params.projectId],
      expiresAt: body.expiresAt,
      secret: body.secret,
    });
    return { body: toApiTokenWire(token, secret), headers: { location: 'api-tokens' } };
  },
  deleteApiToken: async ({ params }) => {
    await apiTokens.delete(params.token);
    return {};
  },
  deleteProjectApiToken: async ({ params }) => {
    await apiTokens.deleteOfProject(params.projectId, params.token);
    return {};
  },
});

/**
 * A person below Admin (an Editor holds READ_API_TOKEN through Unleash's READ_CLIENT_API_TOKEN and
 * READ_FRONTEND_API_TOKEN) sees the client and frontend tokens, not the admin ones, as Unleash
 * lists only the types the permission names. Tokens and Admin sessions see every token.
 */
const visibleTo = (caller: Caller) => (token: ApiToken): boolean =>
  !isUserCaller(caller) || caller.rootRole === ROOT_ROLE.Admin || token.type !== 'admin';
