import { gunzipSync } from 'node:zlib';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { routeTable } from '../../lib/route-table.js';
import type { Services } from '../../local/app-services.js';
import { everyGroupHandler } from '../../functions/registry.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { matchRoute } from '../../local/match-route.js';
import { beforeAll } from 'vitest';
import { formatSecret } from '../../lib/tokens/model.js';
import { storeAdminToken, testServices } from './services.js';

export interface ApiRequest {
  method: string;
  path: string;
  token?: string | undefined;
  body?: unknown;
  /** Sent as given instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
  /** The Lambda context to invoke with; by default a local one with the function's full timeout. */
  context?: Context;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: any;
  /** The body as text, decoded as API Gateway and an HTTP client would (base64, then gzip). */
  text: string;
  isBase64Encoded: boolean;
  /** Set-Cookie values answered in API Gateway's `cookies` (one header each on the wire). */
  cookies: string[];
}

/**
 * Calls the real group handlers with the API Gateway v2 events the local server builds, so
 * integration tests exercise the whole Lambda path without a network hop.
 */
export function apiClient(services: Services) {
  const handlers = everyGroupHandler(services.composition);

  return async function call(request: ApiRequest): Promise<ApiResponse> {
    const [path = '/'] = request.path.split('?');
    const match = matchRoute(request.method, path);
    if (!match) throw new Error(`no route for ${request.method} ${request.path}`);
    const spec = routeTable[match.operationId];
    const text = request.rawBody ?? (request.body === undefined ? '' : JSON.stringify(request.body));
    const headers: Record<string, string> = {
      ...(request.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(request.token ? { Authorization: request.token } : {}),
      ...request.headers,
    };
    const event = toApiGatewayEvent({
      method: request.method,
      url: request.path,
      headers,
      body: Buffer.from(text),
      routeKey: `${spec.method} ${spec.path}`,
      pathParameters: match.params,
      sourceIp: '127.0.0.1',
    });
    const result = (await handlers[spec.group](event, request.context ?? localContext(`test-${spec.group}`))) as APIGatewayProxyStructuredResultV2;
    const answered = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const body = decodedBody(result, answered['content-encoding']);
    return {
      status: result.statusCode ?? 200,
      headers: answered,
      body: String(answered['content-type'] ?? '').includes('json') && body ? JSON.parse(body) : undefined,
      text: body,
      isBase64Encoded: result.isBase64Encoded === true,
      cookies: result.cookies ?? [],
    };
  };
}

function decodedBody(result: APIGatewayProxyStructuredResultV2, contentEncoding: string | undefined): string {
  const raw = result.body ?? '';
  if (!result.isBase64Encoded) return raw;
  const bytes = Buffer.from(raw, 'base64');
  return (contentEncoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
}

/**
 * An admin call over HTTP to a running server (`baseUrl()` is read at call time, once the server
 * is up): a JSON body in, the parsed JSON answer out, and a non-2xx answer thrown with its text.
 */
export function adminOverHttp(baseUrl: () => string, secret: string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${baseUrl()}${path}`, {
      method,
      headers: { Authorization: secret, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * Sends `request` again while it answers 503, which writes nothing. DynamoDB throttles one
 * partition key beyond 1,000 write units a second (all features share one: issue 14) and cancels
 * transactions that meet concurrent ones; under AWS_LIKE_DYNAMODB=1 the run's engine does both.
 * For tests about limits, not throughput: only the answer past the 503s counts.
 */
export async function resendWhileUnavailable<T extends { status: number }>(
  request: () => Promise<T>,
  unavailable: (res: T) => boolean = (res) => res.status === 503,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const res = await request();
    if (!unavailable(res) || attempt === 100) return res;
    await new Promise((resolve) => setTimeout(resolve, 100 * Math.min(attempt, 5)));
  }
}

/**
 * The usual start of an integration test file: services on the run's table, a caller, and an
 * admin token whose secret is known at once and stored before the file's tests run.
 */
export function adminSession(overrides: Record<string, string> = {}) {
  const services = testServices(overrides);
  const call = apiClient(services);
  const token = formatSecret(['*'], '*');
  beforeAll(() => storeAdminToken(services, token));
  return { services, call, token };
}
