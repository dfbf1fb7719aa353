import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { withCors } from '../../lib/frontend/cors.js';
import { FrontendOrigins } from '../../lib/frontend/origins.js';

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
