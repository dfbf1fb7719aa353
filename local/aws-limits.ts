import type { IncomingMessage } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { ACCOUNT_DEFAULT_QUOTA, DEFAULT_THROTTLING, throttleOf, type ApiThrottling, type ThrottleLimits } from '../infra/throttling.js';

/**
 * The limits AWS puts between a client and the functions, as the local server enforces them
 * (issue 13, finding 4):
 *
 * - API Gateway HTTP API: a payload (request body) of at most 10 MB, a request line and headers
 *   of at most 10,240 bytes together, and a Lambda integration answered within 30 s ("Quotas for
 *   configuring and running an HTTP API in API Gateway": "Payload size 10 MB", "Total combined
 *   size of request line and header values 10240 bytes", "Maximum integration timeout 30
 *   seconds"; none can be raised).
 * - Lambda, synchronous invocation: at most 6 MB for the request (the whole event, JSON, the body
 *   base64'd when it is binary) and 6 MB for the response (the whole returned JSON, a base64 body
 *   counted as encoded) ("Lambda quotas": "Invocation payload (request and response): 6 MB each
 *   for request and response (synchronous)"). Lambda counts 6 MB as 6,291,456 bytes.
 * - The function's own timeout, the stack's (lib/time-budget.ts).
 * - Route throttling, infra/throttling.ts, answered 429 by API Gateway (opt-in locally, see
 *   `localThrottling`).
 * - Lambda's concurrency: an invocation beyond what a function may run at once is throttled
 *   (opt-in locally, see `localConcurrency`).
 */
export const API_GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const LAMBDA_MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
export const API_GATEWAY_INTEGRATION_TIMEOUT_MS = 30_000;
export const API_GATEWAY_MAX_REQUEST_LINE_AND_HEADERS_BYTES = 10_240;

/**
 * API Gateway's own answers (HTTP APIs cannot customise them), as docs/deploying.md's table
 * "What a client sees on each AWS-side error" lists them.
 */
const gatewayAnswer = (statusCode: number, message: string) => ({ statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message }) });
export const GATEWAY_ANSWERS = {
  /** A route's limit, or the account's quota, exceeded. */
  tooManyRequests: gatewayAnswer(429, 'Too Many Requests'),
  /** A path or method no route covers. */
  notFound: gatewayAnswer(404, 'Not Found'),
  /** A body over API Gateway's 10 MB. */
  requestTooLarge: gatewayAnswer(413, 'Request Entity Too Large'),
  /**
   * A request line and headers over API Gateway's 10,240 bytes. AWS documents the limit but not
   * the answer: 431 is HTTP's status for it (RFC 6585), the one a user behind API Gateway reported
   * (backbencher.dev, "SOLVED: 431 Status Code With Request Header Fields Too Large", 2023), and
   * Node's own answer to headers over its limit; the body follows API Gateway's other answers.
   * The most likely answer, not a documented one.
   */
  headersTooLarge: gatewayAnswer(431, 'Request Header Fields Too Large'),
  /**
   * Lambda refused the call (an event over 6 MB, or throttled: concurrency used up) or the
   * function failed: it threw, timed out, or returned over 6 MB. HTTP APIs answer these 500
   * (REST APIs 502). Lambda's guide, "Handling Lambda errors with an API Gateway API": "If the
   * Lambda API rejects the invocation request, API Gateway returns a 500 error code", and API
   * Gateway does not retry; the HTTP API body is {"message":"Internal Server Error"} ("Troubleshooting
   * issues with HTTP API Lambda integrations").
   */
  internalError: gatewayAnswer(500, 'Internal Server Error'),
  /** No answer within the 30 s integration timeout. */
  serviceUnavailable: gatewayAnswer(503, 'Service Unavailable'),
} as const;

/** The size Lambda measures for an invocation's request: the event as JSON. */
export function eventPayloadBytes(event: APIGatewayProxyEventV2): number {
  return Buffer.byteLength(JSON.stringify(event), 'utf8');
}

/**
 * What the event the local API Gateway builds from a request can weigh at most, from what the
 * request already measured: every text in the event comes from the URL (the raw path and query,
 * the decoded path and query parameters, the path parameters: five times at most), the headers
 * (their names and values, the host and user agent once more: twice at most) or the body (once),
 * and a character becomes at most six bytes of JSON (`\u0000`); the rest (ids, times, fixed
 * fields) is under EVENT_FIXED_BYTES. When this bound is within 6 MB the event is too and need
 * not be serialized to be measured; near the limit it is measured exactly.
 */
export function eventPayloadBound(urlChars: number, headerChars: number, bodyBytes: number): number {
  return 6 * (5 * urlChars + 2 * headerChars + bodyBytes) + EVENT_FIXED_BYTES;
}

const EVENT_FIXED_BYTES = 2_048;

/**
 * The size Lambda measures for a function's response: what it returned, as JSON (a base64 body as
 * encoded), exactly. The body's share is measured once per distinct body (`quotedBytesOf`): the
 * SDK path returns the same stored text, up to a megabyte, poll after poll, and serializing it
 * again for each poll cost more than the poll.
 */
export function responsePayloadBytes(result: APIGatewayProxyResultV2): number {
  if (typeof result === 'object' && result !== null && typeof result.body === 'string') {
    const quoted = result.isBase64Encoded === true ? result.body.length + 2 : quotedBytesOf(result.body);
    // The rest of the answer (status, headers, cookies) is serialized only when it could matter.
    const restBound = answerWithoutBodyBound(result);
    if (restBound !== undefined && restBound + quoted <= LAMBDA_MAX_PAYLOAD_BYTES) return restBound + quoted;
    return Buffer.byteLength(JSON.stringify({ ...result, body: '' }), 'utf8') - 2 + quoted;
  }
  return Buffer.byteLength(JSON.stringify(result) ?? '', 'utf8');
}

/**
 * An upper bound of an answer's JSON without its body, from its headers' and cookies' lengths
 * (six bytes a character at most, and the field names and punctuation), or undefined for an
 * answer of another shape, which is serialized.
 */
function answerWithoutBodyBound(result: { headers?: Record<string, unknown>; cookies?: string[] }): number | undefined {
  for (const key in result) if (!ANSWER_FIELDS.has(key)) return undefined;
  let chars = 0;
  for (const name in result.headers) {
    const value = result.headers[name];
    if (typeof value !== 'string') return undefined;
    chars += name.length + value.length + 6;
  }
  for (const cookie of result.cookies ?? []) chars += cookie.length + 3;
  return 6 * chars + 256;
}

const ANSWER_FIELDS = new Set(['statusCode', 'headers', 'body', 'isBase64Encoded', 'cookies']);

/** Bodies from this size up are remembered with their measure, the last few of them. */
const REMEMBERED_FROM_CHARS = 16 * 1024;
const REMEMBERED_BODIES = 8;
const recentQuotedBytes = new Map<string, number>();

/**
 * A text's size as a JSON string, quotes included. The last few large texts are kept with it,
 * keyed by the text itself: V8 hashes a long string by its length, and the same string object
 * compares equal at once, so finding a body again costs no pass over it.
 */
function quotedBytesOf(body: string): number {
  if (body.length === 0) return 2;
  if (body.length < REMEMBERED_FROM_CHARS) return Buffer.byteLength(JSON.stringify(body), 'utf8');
  const known = recentQuotedBytes.get(body);
  if (known !== undefined) return known;
  const bytes = Buffer.byteLength(JSON.stringify(body), 'utf8');
  recentQuotedBytes.set(body, bytes);
  if (recentQuotedBytes.size > REMEMBERED_BODIES) recentQuotedBytes.delete(recentQuotedBytes.keys().next().value as string);
  return bytes;
}

/**
 * The size API Gateway holds to 10,240 bytes: the request line as the client sent it (`GET
 * /path?query HTTP/1.1`) and its headers. AWS's quota names "request line and header values";
 * header names are counted here too (not the `: ` and line ends), so a request that passes here
 * passes API Gateway however it reads its own words.
 */
export function requestLineAndHeadersBytes(req: IncomingMessage): number {
  // Node reads the request line and headers as latin1, one byte a character: their lengths are their bytes.
  let bytes = (req.method ?? 'GET').length + (req.url ?? '/').length + req.httpVersion.length + 7;
  for (const part of req.rawHeaders) bytes += part.length;
  return bytes;
}

/**
 * The throttling the local server applies: none unless LOCAL_THROTTLE is set (`1`/`true`: the
 * stack's defaults, infra/throttling.ts). Off by default because the test suite and the
 * fuzzers send hundreds of requests to one admin route within a second, far above the admin
 * routes' burst of 100, which a deployment's users never do from one machine.
 */
export function localThrottling(env: Record<string, string | undefined>): ApiThrottling | undefined {
  const value = env.LOCAL_THROTTLE?.trim().toLowerCase();
  if (value === undefined || value === '' || value === '0' || value === 'false') return undefined;
  if (value === '1' || value === 'true') return DEFAULT_THROTTLING;
  throw new Error(`LOCAL_THROTTLE must be 1 or 0, got ${JSON.stringify(env.LOCAL_THROTTLE)}`);
}

/**
 * API Gateway's token buckets: one per route with the route's limits, and the account's quota
 * in front of every route. A bucket starts full (`burstLimit` tokens) and refills at
 * `rateLimit` tokens a second; a request takes one token from each, or is refused.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly throttling: ApiThrottling,
    private readonly account: ThrottleLimits = ACCOUNT_DEFAULT_QUOTA,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes a token for `routeKey` (`METHOD /path`); false when API Gateway would answer 429. */
  take(routeKey: string): boolean {
    const at = this.now();
    const route = this.refill(`route ${routeKey}`, throttleOf(routeKey, this.throttling), at);
    const account = this.refill('account', this.account, at);
    if (route.tokens < 1 || account.tokens < 1) return false;
    route.tokens -= 1;
    account.tokens -= 1;
    return true;
  }

  private refill(key: string, limits: ThrottleLimits, at: number) {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: limits.burstLimit, at };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(limits.burstLimit, bucket.tokens + ((at - bucket.at) / 1000) * limits.rateLimit);
    bucket.at = at;
    return bucket;
  }
}

/**
 * How many invocations of each function the local server lets run at once: none unless
 * LOCAL_CONCURRENCY is set to a positive whole number, then that many per function (one function
 * per endpoint group, as the stack deploys them). The stack reserves no concurrency for any
 * function (infra/constructs/service-function.ts), so in an account each function may use what is
 * left of the Region's account concurrency (1,000 by default, shared by every function); set this
 * to rehearse a smaller share. Off by default because the test suite sends many requests to one
 * group in parallel.
 */
export function localConcurrency(env: Record<string, string | undefined>): number | undefined {
  const value = env.LOCAL_CONCURRENCY?.trim();
  if (value === undefined || value === '' || value === '0') return undefined;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`LOCAL_CONCURRENCY must be a positive whole number or 0, got ${JSON.stringify(env.LOCAL_CONCURRENCY)}`);
  return Number(value);
}

/**
 * Lambda's concurrency, one count per function: an invocation takes one of the function's slots
 * while it runs and gives it back when the function returns, fails or reaches its timeout; with
 * every slot taken, Lambda throttles the invocation (TooManyRequestsException, 429, reason
 * ReservedFunctionConcurrentInvocationLimitExceeded or ConcurrentInvocationLimitExceeded) and
 * the function never runs.
 */
export class ConcurrencySlots<Name extends string = string> {
  private readonly running = new Map<Name, number>();

  constructor(private readonly limit: number) {}

  /** A slot of `name`'s, with its release (to be called once), or undefined when Lambda would throttle. */
  take(name: Name): (() => void) | undefined {
    const now = this.running.get(name) ?? 0;
    if (now >= this.limit) return undefined;
    this.running.set(name, now + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running.set(name, (this.running.get(name) ?? 1) - 1);
    };
  }

  /** Invocations of `name` running now. */
  inFlight(name: Name): number {
    return this.running.get(name) ?? 0;
  }
}
