import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { log } from '../log.js';
import { toWellFormedJson } from './well-formed.js';

/**
 * The JSON body parser of the SDK reporting routes. Unlike the strict parser it ignores the
 * Content-Type and never refuses: text that is not JSON becomes `undefined` (logged as a
 * warning), so the route's lenient schema decides what is usable and the SDK always gets a 2xx.
 * API Gateway base64-encodes bodies it does not recognise as text (no Content-Type, say).
 */
export const lenientJsonBody = (): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyResultV2> => ({
  before: (request) => {
    const { body, isBase64Encoded } = request.event;
    const text = body === undefined ? undefined : isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
    (request.event as { body?: unknown }).body = toWellFormedJson(parseOrUndefined(text, request.event.rawPath));
  },
});

function parseOrUndefined(text: string | undefined, path: string): unknown {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    log.warn('SDK report body is not JSON; accepted and ignored', { path });
    return undefined;
  }
}
