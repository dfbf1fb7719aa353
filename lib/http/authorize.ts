import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { Access } from './route.js';
import { PermissionDenied } from '../errors.js';
import type { Authentication } from '../tokens/authenticator.js';
import type { Caller } from '../tokens/model.js';

/** Resolves an `Authorization` header to a caller, or refuses with 401. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Authentication>;
}

type EventWithCaller = APIGatewayProxyEventV2 & {
  requestContext: { authorizer?: { lambda?: Caller; revision?: number | undefined } };
};

/**
 * Authenticates the token and checks the route's access before the body is even parsed, as
 * Unleash does. The caller is kept where an API Gateway Lambda authorizer would put it.
 */
export const authorize = (
  access: Access,
  tokens: Authenticator,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: async (request) => {
    if (access.kind === 'public') return;
    const { caller, revision } = await tokens.authenticate(request.event.headers.authorization);
    if (access.kind === 'admin' && caller.type !== 'admin') {
      throw new PermissionDenied(
        access.permission,
        `You don't have the required permission: ${access.permission}. ` +
          `A ${caller.type} token can only use ${apiOf(caller)}; use an admin token.`,
      );
    }
    if ((access.kind === 'sdk' && caller.type === 'frontend') || (access.kind === 'frontend' && caller.type !== 'frontend' && caller.type !== 'admin')) {
      throw new PermissionDenied(
        access.kind === 'sdk' ? 'CLIENT_API' : 'FRONTEND_API',
        `A ${caller.type} token can only use ${apiOf(caller)}; ` +
          (access.kind === 'sdk' ? 'use a client or backend token here.' : 'use a frontend token here.'),
      );
    }
    (request.event as EventWithCaller).requestContext.authorizer = { lambda: caller, revision };
  },
});

/** The API a token of this type is for, as the refusal names it. */
function apiOf(caller: Caller): string {
  return caller.type === 'frontend' ? 'the Frontend API (/api/frontend)' : 'the client API (/api/client)';
}

export function callerOf(event: APIGatewayProxyEventV2): Caller | undefined {
  return (event as EventWithCaller).requestContext.authorizer?.lambda;
}

/** The revision the token check read for this request, if it read one. */
export function checkedRevisionOf(event: APIGatewayProxyEventV2): number | undefined {
  return (event as EventWithCaller).requestContext.authorizer?.revision;
}
