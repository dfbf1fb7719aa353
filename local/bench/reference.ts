/**
 * The limit reference: a bare `node:http` server that answers every request with the exact
 * status, headers and body bytes our server sent for the scenario, and does nothing else.
 */
import { createServer, get, type IncomingHttpHeaders } from 'node:http';
import { listening } from '../http-server.js';

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers a server sets per connection or per moment, not part of the answer's bytes. */
const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** One GET that keeps the body as sent (fetch would unpack gzip). */
export function capture(url: string, headers: Record<string, string>): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: answerHeaders(res.headers), body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function startBareServer(answer: CapturedResponse): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  return listening(server);
}

function answerHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !PER_CONNECTION.has(name)) kept[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return kept;
}
