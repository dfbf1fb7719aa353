import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { AuthenticationRequired, DomainError, RateLimited } from '../errors.js';
import { log } from '../log.js';
import { RETRY_AFTER_SECONDS } from '../time-budget.js';
import { ERROR_TABLE, INTERNAL_ERROR } from './error-table.js';
import { errorResult } from './responses.js';

/**
 * The last step of every chain (lib/http/router.ts): turns whatever was thrown into the
 * interface's Error object. Unknown failures become a 500 that carries the request id
 * (`requestId`, the Lambda context's) and nothing internal; the details go to the log under the
 * same id.
 */
export const mapErrors = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2, Error, Context> => ({
  onError: (request) => {
    request.response = errorResponseFor(request.error, request.context?.awsRequestId ?? 'unknown', request.event);
  },
});

/** The interface's Error object for whatever was thrown while answering `event`. */
function errorResponseFor(error: unknown, requestId: string, event: APIGatewayProxyEventV2): APIGatewayProxyResultV2 {
  if (error instanceof DomainError) {
    const { status, name } = ERROR_TABLE[error.kind];
    // A 503 is ours to look into (the store was down or throttling), so it is logged with its cause;
    // a change refused in maintenance mode is what an administrator asked for.
    if (status >= 500 && error.kind !== 'maintenance') log.error(error.message, { requestId, route: event.routeKey, error: describeUnknown(error.cause) });
    const result = errorResult(status, name, error.message, loginDetails(error));
    // A 503 is "not now": the same request may work a moment later (DESIGN.md 2).
    if (error.kind === 'unavailable') result.headers['retry-after'] = String(RETRY_AFTER_SECONDS);
    if (error instanceof RateLimited) result.headers['retry-after'] = String(error.retryAfterSeconds);
    return result;
  }
  if (error instanceof z.ZodError) {
    return errorResult(ERROR_TABLE.validation.status, ERROR_TABLE.validation.name, describeZodError(error));
  }
  const middyError = asMiddyError(error);
  if (middyError?.package === '@middy/http-json-body-parser') return bodyParserResponse(middyError.message, event);
  if (middyError?.package === '@middy/http-router' && middyError.statusCode === 404) {
    return errorResult(ERROR_TABLE['not-found'].status, ERROR_TABLE['not-found'].name, notAvailable(event.requestContext.http.path));
  }
  log.error('Unexpected failure', { requestId, route: event.routeKey, error: describeUnknown(error) });
  return errorResult(
    INTERNAL_ERROR.status,
    INTERNAL_ERROR.name,
    `Something went wrong on our side. Quote request id ${requestId} when you report it.`,
  );
}

/**
 * Unleash's 401 says how to log in: the UI reads the type and path to show its login form, and
 * `options` to offer single sign-on (left out when there is none, as Unleash's open-source 401).
 * Without the details (a route with no sessions) the password form is named.
 */
function loginDetails(error: DomainError): Record<string, unknown> | undefined {
  if (!(error instanceof AuthenticationRequired) || error.loginPath === undefined) return undefined;
  return error.loginDetails ? { ...error.loginDetails } : { path: error.loginPath, type: 'password', defaultHidden: false };
}

/** Names every failing property path, e.g. `parameters.0.type: Invalid option: …`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(body)'}: ${issue.message}`)
    .join('; ');
}

function bodyParserResponse(message: string, event: APIGatewayProxyEventV2) {
  if (message === 'Unsupported Media Type') {
    const received = event.headers['content-type'];
    const what = received ? `the content type ${received}` : 'no content type';
    return errorResult(
      ERROR_TABLE['unsupported-media-type'].status,
      ERROR_TABLE['unsupported-media-type'].name,
      `We do not accept ${what}. Send the body as application/json (accepted content types: application/json).`,
    );
  }
  return errorResult(ERROR_TABLE.validation.status, ERROR_TABLE.validation.name, 'The request body is not valid JSON.');
}

export const notAvailable = (path: string): string => `The path you were looking for (${path}) is not available.`;

function asMiddyError(error: unknown): { package: string; message: string; statusCode: number | undefined } | undefined {
  if (!(error instanceof Error)) return undefined;
  const cause = (error as Error & { cause?: { package?: unknown } }).cause;
  if (typeof cause?.package !== 'string') return undefined;
  return { package: cause.package, message: error.message, statusCode: (error as { statusCode?: number }).statusCode };
}

function describeUnknown(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { value: String(error) };
}
