import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import { routeTable } from '../../lib/route-table.js';
import type { Group } from '../../lib/http/route.js';
import type { LambdaHandler } from '../../lib/composition/group-handler.js';
import { localContext, toApiGatewayEvent } from './api-gateway-event.js';
import { matchRoute, parseApiMappingKey, pathUnderMapping } from './match-route.js';
import { log } from '../../lib/log.js';

/** Like API Gateway's payload limit; larger bodies are refused before any handler runs. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;

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
}

export async function startHttpServer(handlers: Record<Group, LambdaHandler>, options: HttpServerOptions): Promise<LocalServer> {
  const mappingKey = parseApiMappingKey(options.apiMappingKey);
  const server = createServer((req, res) => {
    serve(handlers, mappingKey, req, res).catch((error: unknown) => {
      log.error('local server failure', { error: String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  server.keepAliveTimeout = 65_000;
  await listen(server, options.port, options.host ?? '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function serve(handlers: Record<Group, LambdaHandler>, mappingKey: string | undefined, req: IncomingMessage, res: ServerResponse) {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = (req.url ?? '/').replace(/\/{2,}/g, '/');
  // API Gateway picks the API mapping first, then the route below it; the event keeps the whole path.
  const routed = pathUnderMapping(url.split('?')[0] ?? '/', mappingKey);
  const match = routed === undefined ? undefined : matchRoute(method, routed);
  const body = hasBody(req) ? await readBody(req) : EMPTY;
  if (body === undefined) return send(res, { statusCode: 413, body: JSON.stringify({ message: 'Request Entity Too Large' }) });
  // API Gateway's own answer for a path no route covers.
  if (!match) return send(res, { statusCode: 404, body: JSON.stringify({ message: 'Not Found' }) });
  const spec = routeTable[match.operationId];
  const event = toApiGatewayEvent({
    method,
    url,
    headers: flattenHeaders(req),
    body,
    routeKey: `${spec.method} ${spec.path}`,
    pathParameters: match.params,
    sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
  });
  const result = await handlers[spec.group](event, localContext(`local-${spec.group}`));
  send(res, result);
}

function send(res: ServerResponse, result: APIGatewayProxyResultV2) {
  const structured = typeof result === 'string' ? { statusCode: 200, body: result } : result;
  const headers: Record<string, string | number | boolean> = { ...(structured.headers ?? {}) };
  if (structured.body && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const body = structured.body ? wireBytes(structured.body, structured.isBase64Encoded === true) : EMPTY;
  res.writeHead(structured.statusCode ?? 200, { ...headers, 'content-length': body.length });
  res.end(body);
}

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
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/** HTTP/1.1: a request with neither header has no body (every SDK poll), so there is no stream to read. */
function hasBody(req: IncomingMessage): boolean {
  return req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
