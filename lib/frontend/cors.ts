import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../http/router.js';
import { allowedOrigin, type FrontendOrigins } from './origins.js';

/** How long a browser may keep a preflight's answer, as Unleash's (`cors`'s maxAge: a day). */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/**
 * CORS for the Frontend API, as Unleash's `cors` middleware answers: every answer (errors too) to
 * an allowed origin says so, exposes the ETag (the browser SDK revalidates with it) and allows
 * credentials; a request from an origin not allowed gets no CORS header, so the browser refuses it.
 */
export function withCors(handler: LambdaHandler, origins: Pick<FrontendOrigins, 'allowed'>): LambdaHandler {
  return async (event, context) => {
    const result = await handler(event, context);
    const origin = allowedOrigin(event.headers?.origin, await origins.allowed());
    if (origin === undefined || typeof result !== 'object') return result;
    const headers: Record<string, string | number | boolean> = { ...result.headers, ...corsHeaders(origin, event) };
    const vary = result.headers?.vary ?? result.headers?.Vary;
    if (vary !== undefined) headers.vary = `${String(vary)}, Origin`;
    return { ...result, headers };
  };
}

/** The headers for an allowed origin; a preflight also learns the methods, headers and how long to keep it. */
export function corsHeaders(origin: string, event: APIGatewayProxyEventV2): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    'access-control-expose-headers': 'ETag',
    vary: 'Origin',
  };
  if (event.requestContext?.http?.method !== 'OPTIONS') return headers;
  return {
    ...headers,
    'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
    // Whatever the SDK asks to send (authorization, content-type, if-none-match, unleash-*).
    ...(event.headers?.['access-control-request-headers']
      ? { 'access-control-allow-headers': event.headers['access-control-request-headers'] }
      : {}),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
  };
}

