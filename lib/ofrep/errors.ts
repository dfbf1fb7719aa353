import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { LambdaHandler } from '../http/router.js';

/**
 * OFREP's error codes (OpenFeature's, as the protocol's evaluation failures carry them). The
 * statuses are the protocol's: a flag nobody knows is a 404, a request the server cannot
 * evaluate a 400, a failure of the server's own a 500.
 */
export const OFREP_ERRORS = {
  FLAG_NOT_FOUND: 404,
  PARSE_ERROR: 400,
  TARGETING_KEY_MISSING: 400,
  INVALID_CONTEXT: 400,
  GENERAL: 500,
} as const;

export type OfrepErrorCode = keyof typeof OFREP_ERRORS;

/** An evaluation OFREP refuses, with the code and the words a provider logs. */
export class OfrepRefusal extends Error {
  constructor(readonly errorCode: OfrepErrorCode, readonly errorDetails: string) {
    super(errorDetails);
  }
}

/** OFREP answers JSON, whatever the status: the providers check the media type of a 200. */
export const OFREP_JSON = { 'content-type': 'application/json; charset=utf-8' } as const;

/** A refusal's body as the protocol shapes it: `{key, errorCode, errorDetails}` (no key for a bulk request). */
export function failureJson(key: string | undefined, errorCode: OfrepErrorCode, errorDetails: string): string {
  return JSON.stringify({ ...(key === undefined ? {} : { key }), errorCode, errorDetails });
}

/** Whether a request is one of OFREP's: by the route API Gateway chose, or its path when it chose none. */
export function isOfrepRequest(event: APIGatewayProxyEventV2): boolean {
  return / \/ofrep\/v1\//.test(event.routeKey ?? '') || /\/ofrep\/v1\//.test(event.rawPath ?? '');
}

/**
 * The interface's errors turned into OFREP's on its routes, so the difference stays here: the
 * shared edge refuses a token, a body that is not JSON or too large, and a throttled store in
 * the service's Error shape (`{id, name, message}`), which no OpenFeature provider reads. A 401
 * or 403 carries no body (the protocol's); a 400 of the edge is a body it could not parse; a
 * 415 (not sent as JSON) is one too; any other failure keeps its status and headers
 * (`Retry-After` included) with the protocol's general error, `{errorDetails}`. The evaluations'
 * own refusals are already OFREP's (they carry `errorCode`) and pass unchanged.
 */
export function withOfrepAnswers(handler: LambdaHandler): LambdaHandler {
  return async (event, context) => {
    const result = await handler(event, context);
    if (typeof result !== 'object' || !isOfrepRequest(event)) return result;
    return ofrepShaped(result, keyOf(event));
  };
}

function ofrepShaped(result: Exclude<APIGatewayProxyResultV2, string>, key: string | undefined): APIGatewayProxyResultV2 {
  const status = result.statusCode ?? 200;
  const headers = { ...(result.headers ?? {}), ...OFREP_JSON };
  if (status < 400) return { ...result, headers };
  const message = messageOf(result.body);
  if (message === undefined) return { ...result, headers };
  if (status === 401 || status === 403) return { statusCode: status, headers, body: '' };
  if (status === 400 || status === 415) return { statusCode: 400, headers, body: failureJson(key, 'PARSE_ERROR', message) };
  if (status === 404) return { statusCode: 404, headers, body: failureJson(key, 'FLAG_NOT_FOUND', message) };
  return { statusCode: status, headers, body: JSON.stringify({ errorDetails: message }) };
}

/** The message of the interface's Error body; undefined for a body that is already OFREP's (or none). */
function messageOf(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as { errorCode?: unknown; message?: unknown };
    if (parsed.errorCode !== undefined) return undefined;
    return typeof parsed.message === 'string' ? parsed.message : 'The request failed.';
  } catch {
    return undefined;
  }
}

function keyOf(event: APIGatewayProxyEventV2): string | undefined {
  return event.pathParameters?.featureName;
}
