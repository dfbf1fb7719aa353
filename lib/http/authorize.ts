import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { Access, Permission } from './route.js';
import { AuthenticationRequired, PermissionDenied, type LoginDetails } from '../errors.js';
import type { Authentication, Caller, UserCaller } from './caller.js';
import { isCrossSite, SAFE_METHODS } from './csrf.js';

/** Resolves an `Authorization` header to a caller, or refuses with 401. */
export interface Authenticator {
  authenticate(authorization: string | undefined): Promise<Authentication>;
}

/** Resolves a request's session cookie to the person it stands for (lib/sessions/service.ts). */
export interface SessionAuthenticator {
  callerOf(cookies: readonly string[]): Promise<UserCaller | undefined>;
  /**
   * The person a personal access token (`user:…`, the secret without `Bearer`) belongs to;
   * undefined when no live token of a live user has that secret.
   */
  callerOfPersonalToken(secret: string): Promise<UserCaller | undefined>;
  /** Whether the person's root role holds the permission a route requires (lib/roles/permissions.ts). */
  grants(person: UserCaller, permission: Permission): boolean;
  /** The service's public origin (UNLEASH_URL's), which a cookie-carried change must come from. */
  readonly ownOrigins: readonly string[];
  /** The ways to log in, which a 401 names for the admin UI's login page. */
  loginDetails(): Promise<LoginDetails>;
}

type EventWithCaller = APIGatewayProxyEventV2 & {
  requestContext: { authorizer?: { lambda?: Caller; revision?: number | undefined } };
};

/**
 * Authenticates the token and checks the route's access before the body is even parsed, as
 * Unleash does. The caller is kept where an API Gateway Lambda authorizer would put it.
 *
 * Without an Authorization header, an admin route takes a person's session cookie instead: their
 * root role decides (the session authenticator answers it from lib/roles/permissions.ts), and a change they did not make from one of the
 * service's own pages is refused (CSRF). A personal access token (`user:…`) in the header stands
 * for its person the same way, their root role deciding. The SDK and Frontend APIs take API tokens
 * only, and never look at cookies: the hot path pays nothing for sessions.
 */
export const authorize = (
  access: Access,
  tokens: Authenticator,
  sessions?: SessionAuthenticator,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: async (request) => {
    if (access.kind === 'public') return;
    const { event } = request;
    const usesSessions = sessions !== undefined && (access.kind === 'admin' || access.kind === 'any-token');
    const personalToken = usesSessions ? personalTokenOf(event.headers.authorization) : undefined;
    if (personalToken !== undefined && sessions) {
      (event as EventWithCaller).requestContext.authorizer = { lambda: await personalTokenCaller(personalToken, access, sessions), revision: undefined };
      return;
    }
    const person = usesSessions && !event.headers.authorization ? await sessionCaller(event, access, sessions) : undefined;
    if (person) {
      (event as EventWithCaller).requestContext.authorizer = { lambda: person, revision: undefined };
      return;
    }
    let authentication: Authentication;
    try {
      authentication = await tokens.authenticate(tokenHeaderOf(event, access));
    } catch (error) {
      // A person without a session is told how to log in (the UI's login page reads it): asked for only then.
      if (usesSessions && error instanceof AuthenticationRequired && error.loginPath !== undefined) {
        throw new AuthenticationRequired(error.message, error.loginPath, await sessions.loginDetails());
      }
      throw error;
    }
    const { caller, revision } = authentication;
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
    if (access.kind === 'ofrep' && caller.type === 'admin') {
      throw new PermissionDenied('FRONTEND_API', 'An admin token cannot evaluate flags through OFREP; use a frontend or client token here.');
    }
    (event as EventWithCaller).requestContext.authorizer = { lambda: caller, revision };
  },
});

/**
 * Where a route reads the token: `Authorization` (raw or `Bearer`), and on the OFREP routes
 * `X-API-Key` too, the other header OpenFeature's providers are configured with.
 */
function tokenHeaderOf(event: APIGatewayProxyEventV2, access: Access): string | undefined {
  if (access.kind !== 'ofrep') return event.headers.authorization;
  return event.headers.authorization || event.headers['x-api-key'];
}

/**
 * Unleash's personal access tokens start with `user:`, which no API token does (their secrets
 * start with a project or `*`); `Bearer` is taken as for API tokens.
 */
function personalTokenOf(authorization: string | undefined): string | undefined {
  const secret = authorization?.replace(/^bearer\s+/i, '').trim();
  return secret?.startsWith('user:') ? secret : undefined;
}

/**
 * The person a personal access token belongs to, checked against the route as their session
 * would be. A token in a header is never sent by a browser on its own, so no cross-site check.
 */
async function personalTokenCaller(secret: string, access: Access, sessions: SessionAuthenticator): Promise<UserCaller> {
  const person = await sessions.callerOfPersonalToken(secret);
  if (!person) {
    throw new AuthenticationRequired(
      'The personal access token you sent is unknown, deleted or has expired, or its user no longer exists. Create a new one under your profile.',
      undefined,
    );
  }
  if (access.kind === 'admin' && !sessions.grants(person, access.permission)) throw new PermissionDenied(access.permission);
  return person;
}

/** The person a session cookie stands for, checked against the route; undefined without a live session. */
async function sessionCaller(event: APIGatewayProxyEventV2, access: Access, sessions: SessionAuthenticator): Promise<UserCaller | undefined> {
  const person = await sessions.callerOf(cookiesOf(event));
  if (!person) return undefined;
  if (access.kind === 'admin' && !sessions.grants(person, access.permission)) {
    throw new PermissionDenied(access.permission);
  }
  if (!SAFE_METHODS.has(event.requestContext.http.method) && isCrossSite(event.headers, sessions.ownOrigins)) {
    throw new PermissionDenied(
      'ADMIN',
      'This request came from another site with your session cookie and was refused. ' +
        'Make changes from the Unleash UI of this service, or send an API token in the Authorization header.',
    );
  }
  return person;
}

/** API Gateway (payload 2.0) hands cookies over in `cookies`; a plain `Cookie` header is read too. */
export function cookiesOf(event: APIGatewayProxyEventV2): readonly string[] {
  if (event.cookies && event.cookies.length > 0) return event.cookies;
  return event.headers?.cookie ? [event.headers.cookie] : [];
}

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
