import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LambdaHandler } from '../../lib/composition/function-handler.js';
import { GROUPS, type Group } from '../../lib/http/route.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { startHttpServer, type LocalServer } from '../../local/http-server.js';

/**
 * The local server's access log (ACCESS_LOG=1, what the clients' suite counts by): one line per
 * request, and never a token, however the path spells it.
 */
describe('the local access log', () => {
  let server: LocalServer;
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    const handler = (async (_event: APIGatewayProxyEventV2) => ({ statusCode: 200, body: '{}' })) as unknown as LambdaHandler;
    const handlers = Object.fromEntries(GROUPS.map((group) => [group, handler])) as Record<Group, LambdaHandler>;
    server = await startHttpServer(handlers, { port: 0, accessLog: true });
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const text = String(chunk);
      if (text.startsWith('{"log":"access"')) {
        lines.push(text);
        return true;
      }
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
  });
  afterAll(async () => {
    process.stdout.write = write;
    await server?.close();
  });

  /** The line logged for one request, once its answer has been read. */
  async function loggedFor(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const before = lines.length;
    const response = await fetch(`${server.url}${path}`, init);
    await response.arrayBuffer();
    for (let tries = 0; lines.length === before && tries < 100; tries += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(lines.length, `a line for ${path}`).toBe(before + 1);
    return JSON.parse(lines[before] as string);
  }

  const secret = formatSecret(['default'], 'development');

  it('writes method, path without the query, status, application and bytes', async () => {
    const line = await loggedFor('/api/client/features?project=default', { headers: { 'unleash-appname': 'checkout' } });
    expect(line).toEqual({ log: 'access', method: 'GET', path: '/api/client/features', status: 200, app: 'checkout', bytes: 2 });
  });

  it.each([
    ['as it is', (token: string) => token],
    ['percent-encoded', (token: string) => encodeURIComponent(token)],
  ])('never writes a token in the path, %s', async (_how, spell) => {
    const line = await loggedFor(`/api/admin/api-tokens/${spell(secret)}`, { method: 'DELETE' });
    expect(JSON.stringify(line)).not.toContain(secret.split('.')[1]);
    expect(line.path).toBe('/api/admin/api-tokens/[redacted]');
  });
});
