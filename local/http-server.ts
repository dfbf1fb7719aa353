import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { routeTable, type OperationId } from '../lib/route-table.js';
import type { Group } from '../lib/http/route.js';
import type { LambdaHandler } from '../lib/composition/function-handler.js';
import { localContext, toApiGatewayEvent } from './api-gateway-event.js';
import { matchRoute, parseApiMappingKey, pathUnderMapping } from './match-route.js';
import { log, REDACTED, redact } from '../lib/log.js';
import type { UiSite } from '../lib/ui/site.js';
import { isApiPath } from '../lib/ui/paths.js';
import { FUNCTION_TIMEOUT_MS } from '../lib/time-budget.js';
import type { ApiThrottling } from '../infra/throttling.js';
import {
  API_GATEWAY_INTEGRATION_TIMEOUT_MS,
  API_GATEWAY_MAX_BODY_BYTES,
  API_GATEWAY_MAX_REQUEST_LINE_AND_HEADERS_BYTES,
  ConcurrencySlots,
  eventPayloadBound,
  eventPayloadBytes,
  GATEWAY_ANSWERS,
  LAMBDA_MAX_PAYLOAD_BYTES,
  requestLineAndHeadersBytes,
  responsePayloadBytes,
  TokenBuckets,
} from './aws-limits.js';

/** API Gateway's payload limit; larger bodies are refused (413) before any handler runs. */
export const MAX_BODY_BYTES = API_GATEWAY_MAX_BODY_BYTES;

export interface LocalServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Plays API Gateway on a laptop: matches the route table, builds the same v2 event the cloud
 * sends, and calls the group's real Lambda handler.
 */
export interface HttpServerOptions {
  port: number;
  host?: string;
  /**
   * Serve the API as a custom domain's API mapping with this key does (`toggles`: the API at
   * `/toggles/api/...`), the way API Gateway builds the events: the route is matched below the
   * key, and `rawPath` and `requestContext.http.path` keep it. Paths outside it get API
   * Gateway's own 404. Unset: the `$default` stage at the root, as the stack's execute-api URL.
   */
  apiMappingKey?: string | undefined;
  /**
   * API Gateway's route throttling (infra/throttling.ts), answered 429; unset: none (the
   * default, LOCAL_THROTTLE, local/aws-limits.ts).
   */
  throttling?: ApiThrottling | undefined;
  /**
   * How many invocations each group's function may run at once, beyond which Lambda throttles
   * (answered 500); unset: no limit (the default, LOCAL_CONCURRENCY, local/aws-limits.ts).
   */
  concurrency?: number | undefined;
  /** The function's timeout, the stack's unless a test shortens it. */
  functionTimeoutMs?: number;
  /** API Gateway's integration timeout, 30 s unless a test shortens it. */
  integrationTimeoutMs?: number;
  /** The admin UI on every GET or HEAD path that is not the API's (in the cloud, CloudFront and S3). */
  ui?: UiSite | undefined;
  /**
   * One JSON line per request on standard output (`npm start` with ACCESS_LOG=1): what the
   * clients' suite counts its SDKs' polls, registrations and metrics by (test/clients/support).
   */
  accessLog?: boolean | undefined;
}

/**
 * What the local server enforces between a request and a function, as AWS does (see
 * local/aws-limits.ts for the sources).
 */
interface Limits {
  buckets: TokenBuckets | undefined;
  slots: ConcurrencySlots<Group> | undefined;
  functionTimeoutMs: number;
  integrationTimeoutMs: number;
  /** The cut-off of each invocation: the function's timeout or API Gateway's, whichever is shorter. */
  cutOffs: Deadlines;
  /** The function's own timeout when API Gateway's comes first: when its concurrency slot is given back. */
  functionEnds: Deadlines | undefined;
}

/**
 * The processes that serve with it (`npm start`, `npm run bench`, the UI bench's server,
 * local/bench/poll-profile.ts) start node with `--no-allocation-site-pretenuring`:
 * scripts/start.ts's header says why.
 */
export async function startHttpServer(handlers: Record<Group, LambdaHandler>, options: HttpServerOptions): Promise<LocalServer> {
  // Node refuses headers over 16 KB itself (431, no body); above API Gateway's 10,240 bytes, up to
  // this, the answer is API Gateway's, from `serve`.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, localApiGateway(handlers, options));
  return listening(server, options.port, options.host);
}

/** What the local server does with each request: API Gateway and Lambda in front of `handlers` (`npm run bench` times it without sockets). */
export function localApiGateway(handlers: Record<Group, LambdaHandler>, options: Omit<HttpServerOptions, 'port' | 'host'>): (req: IncomingMessage, res: ServerResponse) => void {
  const mappingKey = parseApiMappingKey(options.apiMappingKey);
  const functionTimeoutMs = options.functionTimeoutMs ?? FUNCTION_TIMEOUT_MS;
  const integrationTimeoutMs = options.integrationTimeoutMs ?? API_GATEWAY_INTEGRATION_TIMEOUT_MS;
  const limits: Limits = {
    buckets: options.throttling ? new TokenBuckets(options.throttling) : undefined,
    slots: options.concurrency ? new ConcurrencySlots<Group>(options.concurrency) : undefined,
    functionTimeoutMs,
    integrationTimeoutMs,
    cutOffs: new Deadlines(Math.min(functionTimeoutMs, integrationTimeoutMs)),
    functionEnds: functionTimeoutMs <= integrationTimeoutMs ? undefined : new Deadlines(functionTimeoutMs),
  };
  return (req, res) => {
    if (options.accessLog) logAccess(req, res);
    serve(handlers, mappingKey, limits, options.ui, req, res).catch((error: unknown) => {
      log.error('local server failure', { error: String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  };
}

async function serve(handlers: Record<Group, LambdaHandler>, mappingKey: string | undefined, limits: Limits, ui: UiSite | undefined, req: IncomingMessage, res: ServerResponse) {
  // API Gateway refuses a request line and headers over 10,240 bytes before anything else.
  const lineAndHeadersBytes = requestLineAndHeadersBytes(req);
  if (lineAndHeadersBytes > API_GATEWAY_MAX_REQUEST_LINE_AND_HEADERS_BYTES) {
    req.resume();
    return send(res, GATEWAY_ANSWERS.headersTooLarge);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const raw = req.url ?? '/';
  const url = raw.includes('//') ? raw.replace(/\/{2,}/g, '/') : raw;
  // API Gateway picks the API mapping first, then the route below it; the event keeps the whole path.
  const routed = pathUnderMapping(url.split('?')[0] ?? '/', mappingKey);
  // CloudFront sends what is not the API's to the UI's bucket; here the UI is served beside it.
  // An API path is never the UI's (the site answers nothing for one), so it is not asked.
  const page = routed === undefined || !ui || isApiPath(routed) ? undefined : await ui.answer(method, routed, req.headers as Record<string, string | undefined>);
  if (page) {
    req.resume();
    if (answeredBytes.has(res)) answeredBytes.set(res, page.body.length);
    res.writeHead(page.statusCode, { ...page.headers, 'content-length': page.body.length });
    return res.end(page.body);
  }
  const match = routed === undefined ? undefined : matchRoute(method, routed);
  const body = hasBody(req) ? await readBody(req) : EMPTY;
  if (body === undefined) return send(res, GATEWAY_ANSWERS.requestTooLarge);
  if (bodyAppNames.has(req)) bodyAppNames.set(req, appNameInBody(req, body));
  // API Gateway's own answer for a path no route covers.
  if (!match) return send(res, GATEWAY_ANSWERS.notFound);
  const spec = routeTable[match.operationId];
  const routeKey = routeKeyOf(match.operationId);
  if (limits.buckets && !limits.buckets.take(routeKey)) return send(res, GATEWAY_ANSWERS.tooManyRequests);
  const event = toApiGatewayEvent({
    method,
    url,
    headers: flattenHeaders(req),
    body,
    routeKey,
    pathParameters: match.params,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
  });
  // Lambda refuses an invocation whose event is over 6 MB; the function never runs. The event is
  // measured only when what the request measured (a header's comma joins included) could reach it.
  const bound = eventPayloadBound(url.length, lineAndHeadersBytes + req.rawHeaders.length, body.length);
  const eventBytes = bound <= LAMBDA_MAX_PAYLOAD_BYTES ? bound : eventPayloadBytes(event);
  if (eventBytes > LAMBDA_MAX_PAYLOAD_BYTES) {
    log.warn('local API Gateway: Lambda refuses the request, its event is over 6 MB', { routeKey, eventBytes });
    return send(res, GATEWAY_ANSWERS.internalError);
  }
  // Lambda throttles an invocation beyond the function's concurrency; the function never runs.
  const release = limits.slots ? limits.slots.take(spec.group) : () => undefined;
  if (!release) {
    log.warn('local Lambda: throttled, the function runs as many invocations as LOCAL_CONCURRENCY allows', { routeKey, group: spec.group });
    return send(res, GATEWAY_ANSWERS.internalError);
  }
  const outcome = await invoke(handlers[spec.group], event, `local-${spec.group}`, limits, release);
  if (outcome.kind !== 'answer') {
    log.warn(`local API Gateway: ${outcome.kind}`, { routeKey });
    return send(res, outcome.kind === 'integration timeout' ? GATEWAY_ANSWERS.serviceUnavailable : GATEWAY_ANSWERS.internalError);
  }
  // Lambda fails an invocation whose response is over 6 MB, whatever the function returned.
  const responseBytes = responsePayloadBytes(outcome.result);
  if (responseBytes > LAMBDA_MAX_PAYLOAD_BYTES) {
    log.warn('local API Gateway: the function answered over 6 MB, which Lambda fails', { routeKey, responseBytes });
    return send(res, GATEWAY_ANSWERS.internalError);
  }
  send(res, outcome.result);
}

type Outcome =
  | { kind: 'answer'; result: APIGatewayProxyResultV2 }
  | { kind: 'function error' | 'function timeout' | 'integration timeout' };

/**
 * Runs a function as Lambda behind API Gateway does: it fails when the function throws or
 * outlives its timeout, and API Gateway gives up at its integration timeout, whichever comes
 * first. Lambda would stop a timed-out function; here its work cannot be stopped, so it is
 * cut off from the client, its late end is logged, and the store's own deadline (the context's
 * remaining time) refuses its late writes as in the cloud. The invocation's concurrency slot
 * (`release`) is given back when the function ends or reaches its own timeout, as Lambda's is,
 * not when API Gateway stops waiting.
 */
function invoke(handler: LambdaHandler, event: Parameters<LambdaHandler>[0], functionName: string, limits: Limits, release: () => void): Promise<Outcome> {
  const functionEnds = limits.functionEnds === undefined;
  // One promise settled by whichever comes first, the function's end or the cut-off: this runs
  // on every request, so no race between two promises and no chain of three more.
  return new Promise<Outcome>((resolve, reject) => {
    let cutOff = false;
    const cut = limits.cutOffs.add(() => {
      cutOff = true;
      // When the function's timeout comes first, one deadline serves both: its slot is given back as the client is answered.
      if (functionEnds) release();
      resolve({ kind: functionEnds ? 'function timeout' : 'integration timeout' });
    });
    const functionEnd = limits.functionEnds?.add(release);
    let running: Promise<APIGatewayProxyResultV2>;
    try {
      running = handler(event, localContext(functionName, limits.functionTimeoutMs));
    } catch (error) {
      ended(limits, cut, functionEnd, release);
      reject(error);
      return;
    }
    running.then(
      (result) => {
        ended(limits, cut, functionEnd, release);
        if (cutOff) log.warn('local Lambda: a function finished after it was cut off; its answer was dropped', { functionName });
        else resolve({ kind: 'answer', result });
      },
      (error: unknown) => {
        ended(limits, cut, functionEnd, release);
        log.error('local Lambda: the function failed', { functionName, error: String(error) });
        resolve({ kind: 'function error' });
      },
    );
  });
}

/**
 * A function's invocation ended: its deadlines go and its concurrency slot is given back. Not a
 * closure made per invocation (the dev runtime names each one it makes, on every request).
 */
function ended(limits: Limits, cut: Deadline, functionEnd: Deadline | undefined, release: () => void): void {
  limits.cutOffs.remove(cut);
  if (functionEnd) limits.functionEnds?.remove(functionEnd);
  release();
}

/** An invocation's place in `Deadlines`: what to do when it is due, linked to its neighbours. */
interface Deadline {
  due: number;
  act: () => void;
  previous: Deadline | undefined;
  next: Deadline | undefined;
  queued: boolean;
}

/**
 * Acts on each deadline `ms` after it was added unless it was removed first, with one timer for
 * all of them rather than a setTimeout and a clearTimeout per request: every deadline of a queue
 * is the same time after its start, so they fall due in the order they were added, a list whose
 * head is the next one due. The timer is armed for the head and left armed when the head goes
 * (it then finds a later head and re-arms, or nothing); it holds the process open only while a
 * deadline is queued, so a local script or test that made a request is not held open by it.
 */
class Deadlines {
  private head: Deadline | undefined;
  private tail: Deadline | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {}

  add(act: () => void): Deadline {
    const deadline: Deadline = { due: performance.now() + this.ms, act, previous: this.tail, next: undefined, queued: true };
    if (this.tail) this.tail.next = deadline;
    else this.head = deadline;
    this.tail = deadline;
    if (this.timer === undefined) this.timer = setTimeout(this.fire, this.ms);
    else if (deadline === this.head) this.timer.ref();
    return deadline;
  }

  remove(deadline: Deadline): void {
    if (!deadline.queued) return;
    deadline.queued = false;
    if (deadline.previous) deadline.previous.next = deadline.next;
    else this.head = deadline.next;
    if (deadline.next) deadline.next.previous = deadline.previous;
    else this.tail = deadline.previous;
    deadline.previous = undefined;
    deadline.next = undefined;
    if (this.head === undefined) this.timer?.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = performance.now();
    for (let due = this.head; due !== undefined && due.due <= now; due = this.head) {
      this.remove(due);
      due.act();
    }
    if (this.head) this.timer ??= setTimeout(this.fire, Math.max(0, this.head.due - now));
  };
}

/** The route key API Gateway puts in the event (`GET /api/client/features`), made once per route. */
function routeKeyOf(operationId: OperationId): string {
  let key = routeKeys.get(operationId);
  if (key === undefined) {
    const spec = routeTable[operationId];
    routeKeys.set(operationId, (key = `${spec.method} ${spec.path}`));
  }
  return key;
}

const routeKeys = new Map<OperationId, string>();

/** Requests being logged, with the `appName` their body names (registrations and metrics carry it there). */
const bodyAppNames = new WeakMap<IncomingMessage, string | undefined>();

/**
 * Writes the request's access line once its answer is sent: method, path without the query,
 * status, the application (the SDKs' `unleash-appname` header, else the body's `appName`) and the
 * answer's bytes. Never a token: a path that holds one (a token's own admin route) is redacted.
 */
function logAccess(req: IncomingMessage, res: ServerResponse): void {
  bodyAppNames.set(req, undefined);
  answeredBytes.set(res, 0);
  res.once('finish', () => {
    const header = req.headers['unleash-appname'];
    const line = {
      log: 'access',
      method: (req.method ?? 'GET').toUpperCase(),
      path: loggedPath(req.url ?? '/'),
      status: res.statusCode,
      app: (Array.isArray(header) ? header[0] : header) ?? bodyAppNames.get(req) ?? null,
      bytes: answeredBytes.get(res) ?? Number(res.getHeader('content-length') ?? 0),
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  });
}

/**
 * The path as the log shows it: without the query, percent-decoded first (a token sent as
 * `default%3Adevelopment.…` is still a token), then with every token in it redacted, and the
 * segment after `/api-tokens/` redacted whatever it holds (a secret, a listed value, an id).
 */
function loggedPath(url: string): string {
  const raw = url.split('?')[0] ?? '/';
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape: the raw path, which the service answers 400 anyway.
  }
  return String(redact('', decoded)).replace(/(\/api-tokens\/)[^/]+/g, `$1${REDACTED}`);
}

/** Bodies above this are not parsed for the log: it reads what SDKs send, which is small. */
const APP_NAME_BODY_LIMIT = 64 * 1024;

function appNameInBody(req: IncomingMessage, body: Buffer): string | undefined {
  if (body.length === 0 || body.length > APP_NAME_BODY_LIMIT || !String(req.headers['content-type'] ?? '').includes('json')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const appName = (parsed as { appName?: unknown } | null)?.appName;
    return typeof appName === 'string' ? appName : undefined;
  } catch {
    return undefined;
  }
}

export function send(res: ServerResponse, result: APIGatewayProxyResultV2) {
  const structured = typeof result === 'string' ? { statusCode: 200, body: result } : result;
  const headers: Record<string, string | number | boolean | string[]> = { ...(structured.headers ?? {}) };
  // API Gateway sends each of `cookies` as a Set-Cookie header of its own.
  if (typeof result !== 'string' && result.cookies?.length) headers['set-cookie'] = [...result.cookies];
  if (structured.body && !namesContentType(headers)) headers['content-type'] = 'application/json';
  const body = structured.body ? wireBytes(structured.body, structured.isBase64Encoded === true) : EMPTY;
  headers['content-length'] = body.length;
  // Headers given to writeHead alone are written straight out; the access log gets the length here.
  if (answeredBytes.has(res)) answeredBytes.set(res, body.length);
  res.writeHead(structured.statusCode ?? 200, headers as OutgoingHttpHeaders);
  res.end(body);
}

function namesContentType(headers: Record<string, unknown>): boolean {
  if ('content-type' in headers) return true;
  for (const name in headers) if (name.toLowerCase() === 'content-type') return true;
  return false;
}

/** The bytes of each answer the access log is waiting for (getHeader sees only what setHeader set, which would slow every answer). */
const answeredBytes = new WeakMap<ServerResponse, number>();

const EMPTY = Buffer.alloc(0);

/**
 * The bytes of a Lambda answer's body: base64 decoded as API Gateway does, or the text as
 * UTF-8. The SDK path answers the same stored strings over and over (up to a megabyte each), so
 * the last few conversions are kept, keyed by the string itself: that is API Gateway's work,
 * not ours, and `npm run bench` should not charge a megabyte copy per poll to our path.
 */
const recentBodies = { base64: new Map<string, Buffer>(), text: new Map<string, Buffer>() };
const RECENT_BODIES = 8;
const WORTH_KEEPING = 16 * 1024;

function wireBytes(body: string, base64: boolean): Buffer {
  if (body.length < WORTH_KEEPING) return Buffer.from(body, base64 ? 'base64' : 'utf8');
  const recent = base64 ? recentBodies.base64 : recentBodies.text;
  const known = recent.get(body);
  if (known) return known;
  const bytes = Buffer.from(body, base64 ? 'base64' : 'utf8');
  recent.set(body, bytes);
  if (recent.size > RECENT_BODIES) recent.delete(recent.keys().next().value as string);
  return bytes;
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = req.headers;
  for (const name in given) {
    const value = given[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** HTTP/1.1: a request with neither header has no body (every SDK poll), so there is no stream to read. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

/**
 * The body, or undefined when it is over `limit` (API Gateway's, by default). The rest of an
 * oversized body is read and dropped, so the client gets the 413 rather than a connection reset
 * mid-upload.
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}

/**
 * Starts `server` on `port` (0: any free one) of `host` (loopback unless told), with API Gateway's
 * 65 s keep-alive, and answers how to reach and stop it; closing ends open keep-alive connections.
 */
export async function listening(server: Server, port = 0, host = '127.0.0.1'): Promise<LocalServer> {
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
