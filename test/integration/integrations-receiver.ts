import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The bytes as sent (a gzipped body). */
  raw: Buffer;
}

/**
 * An HTTP receiver on loopback for integration deliveries: it records every request, answers
 * each path with the statuses a test queued for it (in order), then 200 with `{"ok":true}`.
 */
export function startReceiver() {
  const received: ReceivedRequest[] = [];
  const scripted = new Map<string, Array<{ status: number; body: string }>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const raw = Buffer.concat(chunks);
      received.push({ path, headers: req.headers, body: raw.toString('utf8'), raw });
      const next = scripted.get(path)?.shift() ?? { status: 200, body: '{"ok":true}' };
      res.writeHead(next.status, { 'Content-Type': 'application/json' }).end(next.body);
    });
  });
  let url = '';
  const ready = new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => {
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    resolve();
  }));
  return {
    ready,
    get url() {
      return url;
    },
    /** Queues answers for a path: these statuses first, each with `body()` (by default `{"ok":true}`). */
    answer(path: string, statuses: number[], body: () => string = () => '{"ok":true}') {
      scripted.set(path, [...(scripted.get(path) ?? []), ...statuses.map((status) => ({ status, body: body() }))]);
    },
    requestsTo: (path: string) => received.filter((request) => request.path === path),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
