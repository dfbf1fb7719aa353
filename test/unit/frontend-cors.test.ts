import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { withCors } from '../../lib/frontend/cors.js';
import { FrontendOrigins } from '../../lib/frontend/dynamo-origins.js';

// CORS around the frontend function's answers (lib/frontend/cors.ts), when the allowed origins
// cannot be read: the answer (a 503 the router built) is never lost.
const event = (origin: string) => ({ headers: { origin }, requestContext: { http: { method: 'GET' } } }) as unknown as APIGatewayProxyEventV2;
const unavailable = async () => ({ statusCode: 503, headers: { 'content-type': 'application/json' }, body: '{"name":"ServiceUnavailable"}' });

function originsWith(clock: { state(): Promise<{ revision: number; tokenChanges: number; shards: Map<string, number> }> }) {
  const origins = new FrontendOrigins({} as never, 'table', {} as never, clock, []);
  origins.read = async () => ['https://app.example.com'];
  return origins;
}

describe('CORS while DynamoDB fails', () => {
  it('sends no CORS header when this instance never read the allowed origins, and keeps the answer', async () => {
    const origins = originsWith({ state: () => Promise.reject(new Error('throttled')) });

    const result = await withCors(unavailable, origins)(event('https://app.example.com'), {} as never);

    expect(result).toMatchObject({ statusCode: 503 });
    expect(Object.keys((result as { headers: object }).headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('answers with the list it last read', async () => {
    let fail = false;
    const origins = originsWith({ state: () => (fail ? Promise.reject(new Error('throttled')) : Promise.resolve({ revision: 1, tokenChanges: 1, shards: new Map() })) });
    await origins.allowed();
    fail = true;

    const result = await withCors(unavailable, origins)(event('https://app.example.com'), {} as never);

    expect((result as { headers: Record<string, string> }).headers['access-control-allow-origin']).toBe('https://app.example.com');
  });
});

// What the answer says to the browser, by the allowed list: credentials only to an origin named in
// it, never with `*`, and `Vary: Origin` on every answer a list decides (a shared cache must not
// hand one origin's answer to another).
const allowing = (list: string[]) => ({ allowed: async () => list });
const ok = async () => ({ statusCode: 200, headers: { 'content-type': 'application/json', etag: '"abc"' }, body: '{"toggles":[]}' });
const preflight = (origin: string) => ({
  headers: { origin, 'access-control-request-headers': 'authorization' },
  requestContext: { http: { method: 'OPTIONS' } },
}) as unknown as APIGatewayProxyEventV2;
const headersOf = (result: unknown) => (result as { headers: Record<string, string> }).headers;

describe('CORS headers by the allowed origins', () => {
  it('answers `*` without credentials and without Vary when every origin is allowed (the default)', async () => {
    for (const list of [['*'], [], ['https://app.example.com', '*']]) {
      const headers = headersOf(await withCors(ok, allowing(list))(event('https://shop.example.com'), {} as never));

      expect(headers['access-control-allow-origin'], JSON.stringify(list)).toBe('*');
      expect(headers, JSON.stringify(list)).not.toHaveProperty('access-control-allow-credentials');
      expect(headers, JSON.stringify(list)).not.toHaveProperty('vary');
      expect(headers['access-control-expose-headers']).toBe('ETag');
    }
  });

  it('answers a preflight under `*` with the methods and headers, still without credentials', async () => {
    const headers = headersOf(await withCors(ok, allowing(['*']))(preflight('https://shop.example.com'), {} as never));

    expect(headers).toMatchObject({ 'access-control-allow-origin': '*', 'access-control-allow-headers': 'authorization', 'access-control-max-age': '86400' });
    expect(headers).not.toHaveProperty('access-control-allow-credentials');
  });

  it('names an allowed origin with credentials and Vary: Origin', async () => {
    const headers = headersOf(await withCors(ok, allowing(['https://app.example.com']))(event('https://app.example.com'), {} as never));

    expect(headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example.com',
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    });
  });

  it('sends Vary: Origin and no CORS header to an origin the list leaves out, and to a request without Origin', async () => {
    const list = allowing(['https://app.example.com']);
    const refused = headersOf(await withCors(ok, list)(event('https://evil.example.com'), {} as never));
    const noOrigin = headersOf(await withCors(ok, list)({ headers: {}, requestContext: { http: { method: 'GET' } } } as unknown as APIGatewayProxyEventV2, {} as never));

    for (const headers of [refused, noOrigin]) {
      expect(Object.keys(headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      expect(headers.vary).toBe('Origin');
      expect(headers.etag).toBe('"abc"');
    }
  });

  it("adds Origin to the answer's own Vary, whatever its case, as one header", async () => {
    const varying = async () => ({ statusCode: 200, headers: { Vary: 'Accept-Encoding' }, body: '' });

    const headers = headersOf(await withCors(varying, allowing(['https://app.example.com']))(event('https://app.example.com'), {} as never));

    expect(Object.keys(headers).filter((name) => name.toLowerCase() === 'vary')).toEqual(['vary']);
    expect(headers.vary).toBe('Accept-Encoding, Origin');
  });
});
