import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import type { RouteSpec } from './route.js';
import { PayloadTooLarge } from '../errors.js';
import { BODY_LIMITS } from '../limits.js';

/**
 * API Gateway lets HTTP API bodies through up to 10 MB, which a parser and a schema would then
 * chew on; the route's limit is enforced here instead, before any parsing.
 */
export function maxBodyBytesOf(spec: Pick<RouteSpec, 'maxBodyBytes'>): number {
  return spec.maxBodyBytes ?? BODY_LIMITS.default;
}

/** Refuses a body above the route's limit with a 413, counted in bytes as received. */
export const bodyLimit = (spec: Pick<RouteSpec, 'maxBodyBytes'>): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => {
  const limit = maxBodyBytesOf(spec);
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === undefined) return;
      const bytes = Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8');
      if (bytes > limit) {
        throw new PayloadTooLarge(`The request body is ${bytes} bytes; this endpoint accepts at most ${limit} bytes (${limit / 1024} KB).`);
      }
    },
  };
};
