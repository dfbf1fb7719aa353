import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpRouterHandler, { type Route } from '@middy/http-router';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { routeTable, routesOfGroup, type OperationId } from '../api/route-table.js';
import type { Group, RouteSpec } from '../api/route-types.js';
import { loadConfig } from '../config.js';
import { createServices, type Services } from '../services.js';
import { runAs } from '../events/actor.js';
import { authorize, callerOf } from './authorize.js';
import { mapErrors } from './map-errors.js';
import type { GroupOperations, Operation } from './operation.js';
import { lenientJsonBody } from './lenient-json-body.js';
import { jsonResult, jsonTextResult } from './responses.js';

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/**
 * Builds one group's Lambda handler: the shared chain (normalise headers, map errors) around
 * a router made from the group's rows of the route table. Each route has its own small chain:
 * authorize, then parse JSON only when the route takes a body, then validate with the row's
 * schemas, then call the handler function.
 */
export function buildGroupHandler<G extends Group>(
  group: G,
  operations: GroupOperations<G>,
  services: Services,
): LambdaHandler {
  const ids = routesOfGroup(group).sort(greedyLast);
  const routes = ids.map((id): Route<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => {
    const spec: RouteSpec = routeTable[id];
    const operation = (operations as unknown as Record<OperationId, Operation<RouteSpec>>)[id];
    return { method: spec.method, path: spec.path, handler: routeHandler(spec, operation, services) };
  });
  return middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>()
    .use(httpHeaderNormalizer())
    .use(mapErrors())
    .handler(httpRouterHandler<APIGatewayProxyEventV2, APIGatewayProxyResultV2>(routes)) as LambdaHandler;
}

/**
 * The Lambda entry point of a group. Configuration is read and services are built on the first
 * invocation, not at import time.
 */
export function groupHandler<G extends Group>(
  group: G,
  defineOperations: (services: Services) => GroupOperations<G>,
): LambdaHandler {
  let built: LambdaHandler | undefined;
  return (event, context) => {
    if (!built) {
      const services = createServices(loadConfig(process.env));
      built = buildGroupHandler(group, defineOperations(services), services);
    }
    return built(event, context);
  };
}

function routeHandler(spec: RouteSpec, operation: Operation<RouteSpec>, services: Services) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyResultV2>().use(authorize(spec.access, services.apiTokens));
  if (spec.body) chain.use(spec.lenientBody ? lenientJsonBody() : httpJsonBodyParser());
  return chain.handler(async (event) => {
    const caller = callerOf(event);
    // Change events name the token that made the change.
    const reply = await runAs(caller?.tokenName ?? 'anonymous', () => operation({
      params: event.pathParameters ?? {},
      query: spec.query ? spec.query.parse(event.queryStringParameters ?? {}) : (event.queryStringParameters ?? {}),
      body: spec.body ? spec.body.parse(event.body) : undefined,
      caller,
      headers: event.headers ?? {},
    } as Parameters<Operation<RouteSpec>>[0]));
    if (reply.json !== undefined) return jsonTextResult(reply.status ?? spec.status, reply.json, reply.headers);
    return jsonResult(reply.status ?? spec.status, reply.body, reply.headers);
  });
}

/** The router tries dynamic routes in order, so the greedy fallback must come last. */
function greedyLast(a: OperationId, b: OperationId): number {
  return Number(routeTable[a].path.includes('+}')) - Number(routeTable[b].path.includes('+}'));
}
