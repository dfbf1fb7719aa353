import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpRouterHandler, { type Route } from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { RouteSpec } from './route.js';
import { NotFound, ServiceUnavailable } from '../errors.js';
import { runWithDeadline } from '../request-deadline.js';
import { EARLY_ANSWER_MS } from '../time-budget.js';
import { authorize, callerOf, checkedRevisionOf, cookiesOf, type Authenticator, type SessionAuthenticator } from './authorize.js';
import { bodyLimit } from './body-limit.js';
import type { ClientAddress } from './client-address.js';
import { lenientJsonBody } from './lenient-json-body.js';
import { maintenanceCheck, refusedInMaintenance, type MaintenanceGate } from './maintenance.js';
import { mapErrors, notAvailable } from './map-errors.js';
import { routeMatcher } from './route-matcher.js';
import { pathParameterNames } from './path-parameters.js';
import type { Operation, OperationsFor } from './operation.js';
import { fitAnswer } from './large-answers.js';
import { base64Result, jsonResult, jsonTextResult, type HttpResult } from './responses.js';
import { refuseIllFormedText } from './well-formed.js';

export interface RouterOptions {
  /**
   * Whether handler functions run with the request's deadline (lib/request-deadline.ts), which
   * keeps writes from starting too late to finish. The SDK API, which writes only usage
   * (metrics, registrations), leaves it off: AsyncLocalStorage turns on async hooks for the
   * whole process, a cost on every promise of every poll.
   */
  keepsDeadline: boolean;
  /** People's sessions, for the admin routes; the SDK and Frontend API functions have none. */
  sessions?: SessionAuthenticator | undefined;
  /**
   * Who sent a request (lib/http/client-address.ts): behind the admin UI's distribution, the
   * viewer it vouches for; by default API Gateway's source address.
   */
  clientAddress?: ClientAddress | undefined;
  /** Maintenance mode, for the admin functions: while it is on, their changes are refused (503). */
  maintenance?: MaintenanceGate | undefined;
}

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Builds a Lambda handler from route-table rows and their handler functions. Each route has one
 * middy chain: the shared steps (normalise headers, answer early before the function's end, map
 * errors), then authorize, then parse JSON only when the route takes a body, then validate with
 * the row's schemas, then call the handler function. A request runs through exactly one chain,
 * picked by its route key before it: a shared chain around a router that runs each route's own
 * chain ran two middy runners, two request objects and their awaits on every SDK poll. It takes
 * the rows rather than the whole table, so a function that serves one resource (the SDK API)
 * bundles only that resource's schemas.
 */
export function buildRouter<Rows extends Record<string, RouteSpec>>(
  rows: Rows,
  operations: OperationsFor<Rows>,
  tokens: Authenticator,
  options: RouterOptions = { keepsDeadline: true },
): LambdaHandler {
  const specs: Record<string, RouteSpec> = rows;
  const handlers = operations as unknown as Record<string, Operation<RouteSpec> | undefined>;
  const ids = Object.keys(specs).sort((a, b) => greedyLast(specs[a] as RouteSpec, specs[b] as RouteSpec));
  const routes = ids.map((id): Route<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => {
    const spec = specs[id] as RouteSpec;
    const operation = handlers[id];
    if (!operation) throw new Error(`Route ${id} has no handler function`);
    return { method: spec.method, path: spec.path, handler: routeHandler(spec, operation, tokens, options) };
  });
  return dispatcher(routes) as LambdaHandler;
}

type Dispatch = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Picks the route API Gateway already picked. Its route key (`GET /api/admin/projects/{projectId}`)
 * is the row's method and path exactly, and the event's `pathParameters` are the values it
 * matched, whatever comes before the route in the URL: a named stage (`/prod`) or a custom
 * domain's API mapping key (`/toggles`), which stay in `rawPath` and `requestContext.http.path`
 * (docs/deploying.md, "Custom domain"). Matching that path against the rows again would 404
 * every request under a mapping key. One Map lookup, no cheaper than middy's own table for the
 * SDK poll and no dearer.
 *
 * A Lambda function URL (the SDK front door `-c sdkFrontDoor=functionUrl`, infra/constructs/
 * sdk-function-url.ts) sends every path with the route key `$default` and no path parameters:
 * the function matches the method and `rawPath` against its own rows as API Gateway would
 * (lib/http/route-matcher.ts, the local server's matcher too), and a path outside them is the
 * interface's 404, not another group's route. Any other event without a known route key (built
 * by hand) falls back to matching the path as middy's router does.
 */
function dispatcher(routes: Route<APIGatewayProxyEventV2, APIGatewayProxyResultV2>[]): Dispatch {
  const byRouteKey = new Map(routes.map((route) => [`${route.method} ${route.path}`, route.handler as Dispatch]));
  const match = routeMatcher(Object.fromEntries(routes.map(({ method, path }) => [`${method} ${path}`, { method, path }])));
  // Outside every route: the same shared steps, so the 404 is the interface's Error object.
  const notFound = sharedChain().handler(async (event: APIGatewayProxyEventV2) => {
    throw new NotFound(notAvailable(event.rawPath));
  }) as unknown as Dispatch;
  // The route's own chain answers early and maps its errors; this one only maps middy's 404.
  const byPath = middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>({ timeoutEarlyInMillis: 0 })
    .use(mapErrors())
    .handler(httpRouterHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2>(routes)) as unknown as Dispatch;
  return (event, context) => {
    const chosen = byRouteKey.get(event.routeKey);
    if (chosen) return chosen(event, context);
    if (event.routeKey !== FUNCTION_URL_ROUTE_KEY) return byPath(event, context);
    const found = match(event.requestContext.http.method, event.rawPath);
    if (!found) return notFound(event, context);
    // What API Gateway would have set: the route's key (logged on errors) and its decoded parameters.
    event.routeKey = found.id;
    event.pathParameters = found.params;
    return (byRouteKey.get(found.id) as Dispatch)(event, context);
  };
}

/** The steps every request goes through first: header names in lower case, the early answer, errors as the interface's Error object. */
function sharedChain() {
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>({ timeoutEarlyInMillis: EARLY_ANSWER_MS, timeoutEarlyResponse })
    .use(httpHeaderNormalizer())
    .use(mapErrors());
}

/** The route key of every event a Lambda function URL sends (payload format 2.0, no routes). */
export const FUNCTION_URL_ROUTE_KEY = '$default';

/**
 * The answer when the handler has not finished EARLY_ANSWER_MS before the function's end: a
 * 503 the client may retry, not a 500. On admin routes no write can be in flight by then (a
 * write starts only while WRITE_BUDGET_MS is left and ends within the store's request
 * timeout, lib/time-budget.ts), and the handler that keeps running starts none. Middy's
 * default, a TimeoutError, became a 500 while a late write could still land.
 */
function timeoutEarlyResponse(): never {
  throw new ServiceUnavailable('The request could not be completed in time; try again in a moment.');
}

/**
 * A Lambda entry point that builds its handler on the first invocation, not at import time:
 * configuration is read then, and a module import stays cheap (INIT is billed and slow).
 */
export function lazyHandler(build: () => LambdaHandler): LambdaHandler {
  let built: LambdaHandler | undefined;
  return (event, context) => {
    built ??= build();
    return built(event, context);
  };
}

function routeHandler(spec: RouteSpec, operation: Operation<RouteSpec>, tokens: Authenticator, options: RouterOptions): Dispatch {
  const chain = sharedChain().use(authorize(spec.access, tokens, options.sessions));
  if (options.maintenance && refusedInMaintenance(spec)) chain.use(maintenanceCheck(options.maintenance));
  if (spec.body) chain.use(bodyLimit(spec)).use(spec.lenientBody ? lenientJsonBody() : httpJsonBodyParser());
  // The SDK poll's path has no parameter: it skips a parse that could only answer `{}`.
  const parsesPath = pathParameterNames(spec.path).length > 0;
  // A route without a query string validates `{}`: when its schema takes `{}` as it is, it is not parsed again on every request.
  const emptyQueryIsItself = spec.query ? parsesToEmpty(spec.query) : true;
  const handle = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyResultV2> => {
    // A lenient (SDK report) body was made well-formed as it was parsed; only a strict one is walked.
    refuseIllFormedText(event, spec.body && !spec.lenientBody ? event.body : undefined);
    const caller = callerOf(event);
    // Before the input is built: the origin secret leaves the headers operations see.
    const sourceIp = options.clientAddress ? await options.clientAddress(event) : event.requestContext?.http?.sourceIp;
    const input = {
      params: parsesPath ? spec.params.parse(event.pathParameters ?? {}) : {},
      query: spec.query && (event.queryStringParameters !== undefined || !emptyQueryIsItself) ? spec.query.parse(event.queryStringParameters ?? {}) : (event.queryStringParameters ?? {}),
      body: spec.body ? spec.body.parse(event.body) : undefined,
      caller,
      headers: event.headers ?? {},
      cookies: cookiesOf(event),
      checkedRevision: checkedRevisionOf(event),
      sourceIp,
    } as Parameters<Operation<RouteSpec>>[0];
    // Writes keep to the request's deadline; who acts reaches the services as `caller`, an argument.
    const reply = options.keepsDeadline ? await runWithDeadline(deadlineOf(context), () => operation(input)) : await operation(input);
    const status = reply.status ?? spec.status;
    // Large text answers go gzip-compressed to callers that take it; one Lambda could not return is refused clearly.
    return fitAnswer(resultOf(status, reply), event.headers?.['accept-encoding'], spec.pagedAlternative, reply.jsonSize);
  };
  return chain.handler(handle) as unknown as Dispatch;
}

/** Whether the schema parses `{}` to an object with nothing in it: then `{}` needs no parse per request. */
function parsesToEmpty(schema: NonNullable<RouteSpec['query']>): boolean {
  const parsed = schema.safeParse({});
  return parsed.success && typeof parsed.data === 'object' && parsed.data !== null && !Array.isArray(parsed.data) && Reflect.ownKeys(parsed.data).length === 0;
}

function resultOf(status: number, reply: Awaited<ReturnType<Operation<RouteSpec>>>): HttpResult {
  const result = reply.base64 !== undefined
    ? base64Result(status, reply.base64, reply.headers)
    : reply.json !== undefined ? jsonTextResult(status, reply.json, reply.headers) : jsonResult(status, reply.body, reply.headers);
  return reply.cookies ? { ...result, cookies: reply.cookies } : result;
}

/** When Lambda stops this invocation; a context without a clock (a bare test double) sets none. */
function deadlineOf(context: Context): number {
  return typeof context?.getRemainingTimeInMillis === 'function'
    ? Date.now() + context.getRemainingTimeInMillis()
    : Number.POSITIVE_INFINITY;
}

/** The router tries dynamic routes in order, so the greedy fallback must come last. */
function greedyLast(a: RouteSpec, b: RouteSpec): number {
  return Number(a.path.includes('+}')) - Number(b.path.includes('+}'));
}
