import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { LambdaHandler } from '../lib/composition/function-handler.js';
import { FUNCTION_URL_ROUTE_KEY } from '../lib/http/router.js';
import { log } from '../lib/log.js';
import { FUNCTION_TIMEOUT_MS } from '../lib/time-budget.js';
import { localContext, toApiGatewayEvent, type IncomingRequest } from './api-gateway-event.js';
import { ConcurrencySlots, eventPayloadBytes, LAMBDA_MAX_PAYLOAD_BYTES, responsePayloadBytes } from './aws-limits.js';
import { listening, readBody, send, type LocalServer } from './http-server.js';

/**
 * The SDK front door as `-c sdkFrontDoor=functionUrl` deploys it (infra/constructs/
 * sdk-function-url.ts): a Lambda function URL on the client function, played locally. Every
 * path goes to that one function, as the URL does: there is no route table in front of it, so
 * the function routes the event itself (lib/http/router.ts) and answers 404 for paths outside
 * the SDK API.
 *
 * What differs from the local API Gateway (local/http-server.ts), as AWS documents a
 * function URL (Lambda guide, "Invoking Lambda function URLs", "Invoking a response streaming
 * enabled function using Lambda function URLs", "Lambda quotas"):
 * - the event is payload format 2.0 with `routeKey` `$default` (also in `requestContext`), no
 *   `pathParameters`, and `requestContext.domainName` the URL's host,
 *   `<url-id>.lambda-url.<region>.on.aws`;
 * - no route throttling: only the function's concurrency (reserved concurrency, when set) limits
 *   it, and a throttled invocation is answered 429;
 * - no 30 s integration timeout: the function's own timeout is the only one;
 * - the invocation payload limits are Lambda's: 6 MB for the request event and, in the BUFFERED
 *   invoke mode the stack deploys, 6 MB for the response (RESPONSE_STREAM would allow a larger
 *   streamed response);
 * - a function that fails, times out or answers over the limit is answered 502.
 */
export type FrontDoor = 'apiGateway' | 'functionUrl';

/** LOCAL_FRONT_DOOR: `apiGateway` (the default) or `functionUrl`, as the stack's `sdkFrontDoor` context. */
export function localFrontDoor(env: Record<string, string | undefined>): FrontDoor {
  const value = env.LOCAL_FRONT_DOOR?.trim();
  if (value === undefined || value === '' || value === 'apiGateway') return 'apiGateway';
  if (value === 'functionUrl') return 'functionUrl';
  throw new Error(`LOCAL_FRONT_DOOR must be apiGateway or functionUrl, got ${JSON.stringify(env.LOCAL_FRONT_DOOR)}`);
}

/** A function URL's host; the id is 32 lowercase letters and digits. */
export const LOCAL_FUNCTION_URL_HOST = 'localfunctionurl0000000000000000.lambda-url.local.on.aws';

/** The event a function URL hands the function for a request (payload format 2.0). */
export function toFunctionUrlEvent(request: Omit<IncomingRequest, 'routeKey' | 'pathParameters'>): APIGatewayProxyEventV2 {
  const event = toApiGatewayEvent({ ...request, routeKey: FUNCTION_URL_ROUTE_KEY, pathParameters: {} });
  const [urlId = ''] = LOCAL_FUNCTION_URL_HOST.split('.');
  event.requestContext = {
    ...event.requestContext,
    accountId: 'anonymous',
    apiId: urlId,
    domainName: LOCAL_FUNCTION_URL_HOST,
    domainPrefix: urlId,
  };
  return event;
}

const answer = (statusCode: number, message: string) => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message }),
});

/** The function URL's own answers, the function never having answered (or not usably). */
export const FUNCTION_URL_ANSWERS = {
  /** The function's concurrency is used up (its reserved concurrency, or the account's). */
  throttled: answer(429, 'Too Many Requests'),
  /** The event would be over Lambda's 6 MB invocation payload. */
  requestTooLarge: answer(413, 'Request Entity Too Large'),
  /** The function threw, timed out, or answered over 6 MB. */
  functionFailed: answer(502, 'Internal Server Error'),
} as const;

export interface FunctionUrlServerOptions {
  port: number;
  host?: string;
  /** The function's reserved concurrency, beyond which invocations are throttled (429); unset: none. */
  concurrency?: number | undefined;
  /** The function's timeout, the stack's unless a test shortens it. */
  functionTimeoutMs?: number;
}

/** Serves `handler` (the client function's) as its function URL does. */
export async function startFunctionUrlServer(handler: LambdaHandler, options: FunctionUrlServerOptions): Promise<LocalServer> {
  const slots = options.concurrency ? new ConcurrencySlots<'client'>(options.concurrency) : undefined;
  const timeoutMs = options.functionTimeoutMs ?? FUNCTION_TIMEOUT_MS;
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    serve(handler, slots, timeoutMs, req, res).catch((error: unknown) => {
      log.error('local function URL failure', { error: String(error) });
      if (!res.headersSent) send(res, FUNCTION_URL_ANSWERS.functionFailed);
      else res.end();
    });
  });
  return listening(server, options.port, options.host);
}

async function serve(
  handler: LambdaHandler,
  slots: ConcurrencySlots<'client'> | undefined,
  timeoutMs: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // A function URL has no gateway limit of its own: past what one 6 MB event could carry, 413.
  const body = await readBody(req, LAMBDA_MAX_PAYLOAD_BYTES);
  if (body === undefined) return send(res, FUNCTION_URL_ANSWERS.requestTooLarge);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  const event = toFunctionUrlEvent({
    method: (req.method ?? 'GET').toUpperCase(),
    url: req.url ?? '/',
    headers,
    body,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
  });
  if (eventPayloadBytes(event) > LAMBDA_MAX_PAYLOAD_BYTES) return send(res, FUNCTION_URL_ANSWERS.requestTooLarge);
  const release = slots ? slots.take('client') : () => undefined;
  if (!release) return send(res, FUNCTION_URL_ANSWERS.throttled);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  const running = handler(event, localContext('local-client', timeoutMs)).then(
    (result) => result,
    (error: unknown) => {
      log.error('local Lambda: the function failed', { error: String(error) });
      return undefined;
    },
  );
  try {
    const result = await Promise.race([running, timedOut]);
    if (result === undefined) return send(res, FUNCTION_URL_ANSWERS.functionFailed);
    if (responsePayloadBytes(result) > LAMBDA_MAX_PAYLOAD_BYTES) {
      log.warn('local function URL: the function answered over 6 MB, which a BUFFERED function URL fails', {});
      return send(res, FUNCTION_URL_ANSWERS.functionFailed);
    }
    send(res, result);
  } finally {
    clearTimeout(timer);
    // Lambda gives the slot back when the function ends (or reaches its timeout).
    void running.finally(release);
  }
}

