/**
 * What the local server spends on a request beside the function, without sockets: the local API
 * Gateway's own work (route matching, the v2 event, the Lambda context, the limit checks, the
 * answer's headers and body bytes) around the client handler, timed by CPU on requests made in
 * memory. Under load the HTTP runs' server CPU per request also holds the sockets' system calls
 * and whatever the shared machine does to the caches; this figure holds only our code, so it
 * moves when the local runtime's path changes and little otherwise.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { LambdaHandler } from '../../lib/http/router.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface GatewayCost {
  /** CPU per request through the whole local server (handler included), µs. */
  serverMicros: number;
  /** CPU per request of the handler alone, on the event the local server would build, µs. */
  handlerMicros: number;
}

const BATCHES = 5;

/** Best of five batches of `calls` GETs of `path` with `headers`, through `listener` and through `handler` alone. */
export async function localGatewayCost(listener: RequestListener, handler: LambdaHandler, path: string, headers: Record<string, string>, calls = 5_000): Promise<GatewayCost> {
  const socket = new Socket();
  let serverMicros = Number.POSITIVE_INFINITY;
  let handlerMicros = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < BATCHES; batch += 1) {
    serverMicros = Math.min(serverMicros, await cpuMicrosPerCall(calls, () => answered(listener, socket, path, headers)));
    handlerMicros = Math.min(handlerMicros, await cpuMicrosPerCall(calls, async () => {
      await handler(toApiGatewayEvent({
        method: 'GET', url: path, headers: { ...headers }, body: Buffer.alloc(0), routeKey: `GET ${path}`, pathParameters: {}, sourceIp: '127.0.0.1',
      }), localContext('bench-client'));
    }));
  }
  socket.destroy();
  return { serverMicros, handlerMicros };
}

async function cpuMicrosPerCall(calls: number, call: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  for (let done = 0; done < calls; done += 1) await call();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

/** One request as Node's HTTP server would hand it over, answered when the server ends the response. */
function answered(listener: RequestListener, socket: Socket, path: string, headers: Record<string, string>): Promise<void> {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = path;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.headers = { host: '127.0.0.1', connection: 'keep-alive', ...headers };
  req.rawHeaders = Object.entries(req.headers).flatMap(([name, value]) => [name, String(value)]);
  req.push(null);
  const res = new ServerResponse(req);
  return new Promise((resolve) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const result = end(...args);
      resolve();
      return result;
    }) as typeof res.end;
    listener(req, res);
  });
}
