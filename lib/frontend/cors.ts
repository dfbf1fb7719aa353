import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../http/router.js';
import { allowedOrigin, type FrontendOrigins } from './dynamo-origins.js';

/** How long a browser may keep a preflight's answer, as Unleash's (`cors`'s maxAge: a day). */
const PREFLIGHT_MAX_AGE_SECONDS = 86_400;

/**
 * CORS for the Frontend API: every answer (errors too) to an allowed origin says so and exposes
 * the ETag (the browser SDK revalidates with it); a request from an origin not allowed gets no
 * CORS header, so the browser refuses it.
 *
 * Credentials are allowed only to an origin the list names, never with `*`: a wildcard is for
 * any page on the internet, and a browser refuses the pair anyway. When a list decides, the
 * answer depends on the request's Origin, so it says `Vary: Origin` whatever the origin (one not
 * allowed and none at all included): a shared cache must not give one page another's answer.
 * Under `*` the answer is the same for everyone and varies on nothing.
 */
export function withCors(handler: LambdaHandler, origins: Pick<FrontendOrigins, 'allowed'>): LambdaHandler {
  return async (event, context) => {
    const result = await handler(event, context);
    const allowed = await origins.allowed();
    if (allowed === undefined || typeof result !== 'object') return result;
    const origin = allowedOrigin(event.headers?.origin, allowed);
    const { vary, ...rest } = withoutVary(result.headers ?? {});
    const headers: Record<string, string | number | boolean> = { ...rest, ...(origin === undefined ? {} : corsHeaders(origin, event)) };
    const varies = origin !== '*';
    const varyOn = [...(vary === undefined ? [] : [String(vary)]), ...(varies ? ['Origin'] : [])];
    if (varyOn.length > 0) headers.vary = varyOn.join(', ');
    return { ...result, headers };
  };
}

/** The headers without Vary, whatever its case, and its value: CORS adds to it as one header. */
function withoutVary(headers: Record<string, string | number | boolean>): Record<string, string | number | boolean> & { vary?: string | number | boolean } {
  const rest: Record<string, string | number | boolean> = {};
  let vary: string | number | boolean | undefined;
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === 'vary') vary = value;
    else rest[name] = value;
  }
  return vary === undefined ? rest : { ...rest, vary };
}

/**
 * The headers for an allowed origin (`*` or the one named); a preflight also learns the methods,
 * headers and how long to keep it. Vary is the caller's: it depends on the list, not the origin.
 */
export function corsHeaders(origin: string, event: APIGatewayProxyEventV2): Record<string, string> {
  const headers: Record<string, string> = {
    'access-control-allow-origin': origin,
    ...(origin === '*' ? {} : { 'access-control-allow-credentials': 'true' }),
    'access-control-expose-headers': 'ETag',
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
