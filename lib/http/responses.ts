import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorBody } from './schemas.js';

export type HttpResult = APIGatewayProxyStructuredResultV2 & { statusCode: number; headers: Record<string, string> };

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * On every answer: a browser must take the content type as sent, so a JSON answer that echoes
 * user text (a feature description) is never sniffed into HTML or script.
 */
const NO_SNIFF = { 'x-content-type-options': 'nosniff' } as const;

export function jsonResult(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult {
  if (body === undefined) return { statusCode, headers: withHeaders({ 'x-content-type-options': NO_SNIFF['x-content-type-options'] }, headers), body: '' };
  return { statusCode, headers: jsonHeaders(headers), body: JSON.stringify(body) };
}

/** A body that is already JSON text (serialized once and reused). */
export function jsonTextResult(statusCode: number, json: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: jsonHeaders(headers), body: json };
}

/** A binary body (gzip-compressed JSON), base64-encoded as API Gateway expects it. */
export function base64Result(statusCode: number, base64: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: jsonHeaders(headers), body: base64, isBase64Encoded: true };
}

/** The content type and nosniff, then `headers` (which may replace either): what `{ ...base, ...headers }` makes. */
function jsonHeaders(headers: Record<string, string>): Record<string, string> {
  return withHeaders({ 'content-type': JSON_CONTENT_TYPE, 'x-content-type-options': NO_SNIFF['x-content-type-options'] }, headers);
}

/**
 * `headers` copied onto `base` in their order, as a second spread would: spelled out because
 * every answer makes one (a second spread in an object literal takes V8's slow generic copy).
 */
function withHeaders(base: Record<string, string>, headers: Record<string, string>): Record<string, string> {
  // for…in over a plain object is its own keys in Object.keys order, without the array.
  for (const name in headers) base[name] = headers[name] as string;
  return base;
}

/** The interface's Error object; every error instance gets its own UUID v4. `extra` adds fields (a 401's login details). */
export function errorResult(statusCode: number, name: string, message: string, extra?: Record<string, unknown>): HttpResult {
  const body: ErrorBody = { id: randomUUID(), name, message, ...extra };
  return jsonResult(statusCode, body);
}
