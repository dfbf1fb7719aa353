import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ExceedsLimit } from '../errors.js';
import { acceptsGzip } from './accept-encoding.js';
import type { HttpResult } from './responses.js';

const gzipAsync = promisify(gzip);

/**
 * Text answers from this size up are sent gzip-compressed to a caller that accepts gzip. It is
 * CloudFront's own lower bound ("Serving compressed files": it compresses files between 1,000
 * and 10,000,000 bytes): below about a kilobyte an answer fits one TCP segment either way, and
 * the base64 that carries a binary Lambda answer (4/3 the bytes) eats what gzip saves.
 */
export const COMPRESSION_THRESHOLD_BYTES = 1_000;

/**
 * What a synchronous Lambda invocation may return: 6 MB, counted on the returned JSON as a whole
 * (a base64 body as encoded) ("Lambda quotas": "Invocation payload (request and response) 6 MB
 * each for request and response (synchronous)"). The local server enforces the same number
 * (local/aws-limits.ts).
 */
export const LAMBDA_MAX_RESPONSE_BYTES = 6 * 1024 * 1024;

const MB = 1024 * 1024;

/** A text body's size, known to whoever made the text once (the SDK payload). */
export interface JsonSize {
  /** Bytes of the text in UTF-8. */
  utf8Bytes: number;
  /** Bytes of the text written as a JSON string, quotes included: what it adds to a Lambda answer. */
  quotedBytes: number;
}

/**
 * The last step of every answer: gzip a large text answer the caller accepts gzip for, and
 * refuse, with an answer that says what to do instead, one that Lambda could not return (it
 * would fail the invocation and API Gateway answer an opaque 500). `pagedAlternative` is the
 * route's paginated replacement, named in that refusal. `bodySize`, when the body's maker knows
 * it, spares measuring the body (a megabyte of SDK JSON per poll).
 */
export function fitAnswer(result: HttpResult, acceptEncoding: string | undefined, pagedAlternative?: string, bodySize?: JsonSize): HttpResult | Promise<HttpResult> {
  const gzipAccepted = acceptsGzip(acceptEncoding);
  // Only compressing waits for anything: every other answer (an SDK poll's stored bytes, a 304) is checked at once.
  if (isCompressible(result, bodySize)) return compressed(result, gzipAccepted).then((fitted) => fits(fitted, gzipAccepted, pagedAlternative, gzipAccepted ? undefined : bodySize));
  return fits(result, gzipAccepted, pagedAlternative, bodySize);
}

/** The answer itself when Lambda can return it, else the refusal that says what to do instead. */
function fits(fitted: HttpResult, gzipAccepted: boolean, pagedAlternative: string | undefined, bodySize: JsonSize | undefined): HttpResult {
  // A body gzipped here is a new text: only the maker's own text keeps the size it gave.
  const bytes = lambdaPayloadBytes(fitted, bodySize);
  if (bytes <= LAMBDA_MAX_RESPONSE_BYTES) return fitted;
  throw answerTooLarge(bytes, gzipAccepted || fitted.isBase64Encoded === true, pagedAlternative);
}

/** The refusal of an answer of `bytes` that Lambda could not return, saying what to do instead. */
export function answerTooLarge(bytes: number, compressed: boolean, pagedAlternative?: string): ExceedsLimit {
  return new ExceedsLimit(tooLargeMessage(bytes, compressed, pagedAlternative));
}

/** A text body at or above the threshold that no operation encoded already. */
function isCompressible(result: HttpResult, bodySize: JsonSize | undefined): boolean {
  if (result.isBase64Encoded || result.headers['content-encoding'] !== undefined) return false;
  if (bodySize) return bodySize.utf8Bytes >= COMPRESSION_THRESHOLD_BYTES;
  const body = result.body ?? '';
  // A UTF-16 unit is at most 3 bytes in UTF-8: a body this short cannot reach the threshold.
  if (body.length * 3 < COMPRESSION_THRESHOLD_BYTES) return false;
  return Buffer.byteLength(body, 'utf8') >= COMPRESSION_THRESHOLD_BYTES;
}

/**
 * Above the threshold the answer depends on Accept-Encoding whichever form is sent, so both say
 * so (`Vary`): a cache must not hand the gzip form to a client that did not ask for it.
 */
async function compressed(result: HttpResult, gzipAccepted: boolean): Promise<HttpResult> {
  const headers = { ...result.headers, vary: withAcceptEncoding(result.headers.vary) };
  if (!gzipAccepted) return { ...result, headers };
  const bytes = await gzipAsync(result.body ?? '');
  return { ...result, headers: { ...headers, 'content-encoding': 'gzip' }, body: bytes.toString('base64'), isBase64Encoded: true };
}

function withAcceptEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return vary.split(',').some((name) => name.trim().toLowerCase() === 'accept-encoding') ? vary : `${vary}, Accept-Encoding`;
}

/**
 * The size Lambda holds to 6 MB: the answer as JSON. Exact when the body's size as a JSON string
 * is known (`bodySize`, from whoever made the text once) or certain to be (base64 has nothing to
 * escape); otherwise an upper bound while it is far from the limit (a character of the body
 * becomes at most 6 bytes of JSON, `\u0000`), and measured only when it could be near.
 */
export function lambdaPayloadBytes(result: HttpResult, bodySize?: JsonSize): number {
  const body = result.body ?? '';
  if (bodySize || result.isBase64Encoded) {
    const quoted = bodySize ? bodySize.quotedBytes : body.length + 2;
    // Far from the limit an upper bound of the rest does (every poll gets here); near it, exactly.
    const restBound = answerWithoutBodyBound(result);
    if (restBound + quoted <= LAMBDA_MAX_RESPONSE_BYTES) return restBound + quoted;
    // Everything but the body, exactly, and the body's known size in place of its empty string's two quotes.
    return Buffer.byteLength(JSON.stringify({ ...result, body: '' }), 'utf8') - 2 + quoted;
  }
  // No body (a 304, a 202): the headers' upper bound does, far below the limit as it always is.
  if (body.length === 0) {
    const bound = answerWithoutBodyBound(result) + 2;
    if (bound <= LAMBDA_MAX_RESPONSE_BYTES) return bound;
  }
  const headerBytes = Buffer.byteLength(JSON.stringify(result.headers), 'utf8') + 256;
  const bound = body.length * 6;
  if (bound + headerBytes <= LAMBDA_MAX_RESPONSE_BYTES) return bound + headerBytes;
  return Buffer.byteLength(JSON.stringify(result), 'utf8');
}

/**
 * An upper bound of an answer's JSON without its body: a header or cookie character is at most
 * six bytes of JSON (`\u0000`), plus its quotes and separators, and the status, the base64 flag
 * and the field names fit in the fixed part.
 */
function answerWithoutBodyBound(result: HttpResult): number {
  let chars = 0;
  for (const name in result.headers) chars += name.length + String(result.headers[name]).length + 6;
  for (const cookie of result.cookies ?? []) chars += cookie.length + 3;
  return 6 * chars + 256;
}

function tooLargeMessage(bytes: number, compressed: boolean, pagedAlternative: string | undefined): string {
  const size = `${(bytes / MB).toFixed(1)} MB`;
  const what = compressed ? `This answer would be ${size} even gzip-compressed` : `This answer would be ${size}`;
  const ways = [
    ...(pagedAlternative ? [`page through ${pagedAlternative} (offset and limit; its total says how many there are)`] : []),
    ...(compressed ? [] : ['ask for it gzip-compressed (Accept-Encoding: gzip; curl --compressed)']),
  ];
  const advice = ways.length > 0 ? ways.join(', or ') : 'ask for less at a time';
  return `${what}, more than the 6 MB an AWS Lambda function can return. Instead, ${advice}.`;
}
