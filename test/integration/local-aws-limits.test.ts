import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { GROUPS, type Group } from '../../lib/http/route.js';
import type { LambdaHandler } from '../../lib/composition/group-handler.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { FUNCTION_TIMEOUT_MS } from '../../lib/time-budget.js';
import { DEFAULT_THROTTLING, type ApiThrottling } from '../../infra/throttling.js';
import { startHttpServer, type HttpServerOptions, type LocalServer } from '../../scripts/local/http-server.js';
import { startLocalRuntime, type LocalRuntime } from '../../scripts/local/runtime.js';
import { localThrottling, TokenBuckets } from '../../scripts/local/aws-limits.js';
import { unique } from '../support/services.js';
import { resendWhileUnavailable } from '../support/api.js';

/**
 * The local server answers as API Gateway and Lambda do at their limits (issue 13, finding 4):
 * docs/deploying.md, "What a client sees on each AWS-side error".
 */
const MB = 1024 * 1024;
const INTERNAL_ERROR = { message: 'Internal Server Error' };

/** A JSON body of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });

/** Every group served by one synthetic function, which records what it was handed. */
function synthetic(answer: (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>) {
  const calls: Array<{ event: APIGatewayProxyEventV2; remainingMs: number }> = [];
  const handler = (async (event: APIGatewayProxyEventV2, context: Context) => {
    calls.push({ event, remainingMs: context.getRemainingTimeInMillis() });
    return answer(event, context);
  }) as unknown as LambdaHandler;
  const handlers = Object.fromEntries(GROUPS.map((group) => [group, handler])) as Record<Group, LambdaHandler>;
  return { handlers, calls };
}

describe('the local server at AWS limits, with a synthetic function', () => {
  const servers: LocalServer[] = [];
  const serve = async (handlers: Record<Group, LambdaHandler>, options: Partial<HttpServerOptions> = {}) => {
    const server = await startHttpServer(handlers, { port: 0, ...options });
    servers.push(server);
    return server.url;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('answers 500 Internal Server Error when the function returns over 6 MB, as Lambda fails it', async () => {
    const { handlers } = synthetic(async () => ({ statusCode: 200, body: jsonOf(6 * MB + 1) }));
    const url = await serve(handlers);
    const response = await fetch(`${url}/api/admin/features`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(INTERNAL_ERROR);
  });

  it('counts a base64 answer as encoded: 4.6 MB of bytes is over 6 MB', async () => {
    const bytes = Buffer.alloc(Math.ceil(4.6 * MB), 1);
    const { handlers } = synthetic(async () => ({ statusCode: 200, isBase64Encoded: true, body: bytes.toString('base64') }));
    const response = await fetch(`${await serve(handlers)}/api/admin/features`);
    expect(response.status).toBe(500);
  });

  it('passes an answer under 6 MB through', async () => {
    const body = jsonOf(5 * MB);
    const { handlers } = synthetic(async () => ({ statusCode: 200, body }));
    const response = await fetch(`${await serve(handlers)}/api/admin/features`);
    expect(response.status).toBe(200);
    expect((await response.text()).length).toBe(body.length);
  });

  it('refuses a body between 6 MB and 10 MB as Lambda does (500), without running the function', async () => {
    const { handlers, calls } = synthetic(async () => ({ statusCode: 200, body: '{}' }));
    const response = await fetch(`${await serve(handlers)}/api/admin/projects`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOf(7 * MB),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(INTERNAL_ERROR);
    expect(calls).toHaveLength(0);
  });

  it('hands the function a body under 6 MB', async () => {
    const { handlers, calls } = synthetic(async () => ({ statusCode: 201, body: '{}' }));
    const response = await fetch(`${await serve(handlers)}/api/admin/projects`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOf(5 * MB),
    });
    expect(response.status).toBe(201);
    expect(calls[0]?.event.body?.length).toBe(5 * MB);
  });

  it('answers 413 to a body over API Gateway\'s 10 MB', async () => {
    const { handlers, calls } = synthetic(async () => ({ statusCode: 200, body: '{}' }));
    const response = await fetch(`${await serve(handlers)}/api/admin/projects`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: jsonOf(10 * MB + 1),
    });
    expect(response.status).toBe(413);
    expect(calls).toHaveLength(0);
  });

  it('cuts a function off at its timeout with 500, and hands it the same deadline', async () => {
    const { handlers, calls } = synthetic(() => new Promise(() => {}));
    const response = await fetch(`${await serve(handlers, { functionTimeoutMs: 50 })}/api/admin/features`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(INTERNAL_ERROR);
    expect(calls[0]?.remainingMs).toBeLessThanOrEqual(50);
  });

  it('answers 503 when API Gateway\'s integration timeout comes before the function\'s', async () => {
    const { handlers } = synthetic(() => new Promise(() => {}));
    const response = await fetch(`${await serve(handlers, { functionTimeoutMs: 60_000, integrationTimeoutMs: 50 })}/api/admin/features`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: 'Service Unavailable' });
  });

  it('hands the function the stack\'s timeout by default', async () => {
    const { handlers, calls } = synthetic(async () => ({ statusCode: 200, body: '{}' }));
    await fetch(`${await serve(handlers)}/api/admin/features`);
    expect(calls[0]?.remainingMs).toBeLessThanOrEqual(FUNCTION_TIMEOUT_MS);
  });

  it('answers 500 when the function throws', async () => {
    const { handlers } = synthetic(async () => {
      throw new Error('boom');
    });
    const response = await fetch(`${await serve(handlers)}/api/admin/features`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(INTERNAL_ERROR);
  });

  it('throttles each route with its own bucket and answers 429 Too Many Requests', async () => {
    // No refill to speak of (one token in ~30 years): the answers do not depend on how fast this machine is.
    const still = { rateLimit: 1e-9, burstLimit: 2 };
    const throttling: ApiThrottling = { sdkPoll: still, sdkReport: still, admin: still };
    const { handlers, calls } = synthetic(async () => ({ statusCode: 200, body: '{}' }));
    const url = await serve(handlers, { throttling });
    const statuses = async (path: string) => {
      const answers: number[] = [];
      for (let i = 0; i < 3; i += 1) answers.push((await fetch(`${url}${path}`)).status);
      return answers;
    };
    expect(await statuses('/api/admin/features')).toEqual([200, 200, 429]);
    // Another route has a bucket of its own.
    expect(await statuses('/api/admin/projects')).toEqual([200, 200, 429]);
    expect(calls).toHaveLength(4);
    const refused = await fetch(`${url}/api/admin/features`);
    expect(await refused.json()).toEqual({ message: 'Too Many Requests' });
  });
});

describe('the local token buckets', () => {
  it('refill at the route\'s rate up to its burst, and the account quota caps every route together', () => {
    let now = 0;
    const limits = { sdkPoll: { rateLimit: 1, burstLimit: 2 }, sdkReport: { rateLimit: 1, burstLimit: 2 }, admin: { rateLimit: 1, burstLimit: 2 } };
    const buckets = new TokenBuckets(limits, { rateLimit: 0.001, burstLimit: 3 }, () => now);
    expect([buckets.take('GET /a'), buckets.take('GET /a'), buckets.take('GET /a')]).toEqual([true, true, false]);
    now = 1000;
    expect([buckets.take('GET /a'), buckets.take('GET /a')]).toEqual([true, false]);
    // The account's 3 tokens are taken (a refused request takes none), so a fresh route is refused too.
    expect(buckets.take('GET /b')).toBe(false);
  });

  it('are off unless LOCAL_THROTTLE is set, then the stack\'s limits', () => {
    expect(localThrottling({})).toBeUndefined();
    expect(localThrottling({ LOCAL_THROTTLE: '0' })).toBeUndefined();
    expect(localThrottling({ LOCAL_THROTTLE: '1' })).toBe(DEFAULT_THROTTLING);
    expect(() => localThrottling({ LOCAL_THROTTLE: 'yes please' })).toThrow(/LOCAL_THROTTLE/);
  });
});

describe('the local runtime at AWS limits, with the real functions', () => {
  const adminSecret = formatSecret(['*'], '*');
  let runtime: LocalRuntime;
  let server: LocalServer;

  beforeAll(async () => {
    runtime = await startLocalRuntime({
      inMemory: true,
      dataDir: '.data',
      env: { DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('limits'), INIT_ADMIN_API_TOKENS: adminSecret, LOCAL_THROTTLE: '1' },
    });
    server = await startHttpServer(runtime.handlers, { port: 0, throttling: runtime.throttling });
  });

  afterAll(async () => {
    await server?.close();
    await runtime?.stop();
  });

  const post = (path: string, body: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: adminSecret, 'content-type': 'application/json' }, body });

  it('takes the stack\'s throttling from LOCAL_THROTTLE', () => {
    expect(runtime.throttling).toEqual(DEFAULT_THROTTLING);
  });

  it('answers a 7 MB body to a real route as API Gateway does when Lambda refuses it', async () => {
    const response = await post('/api/admin/projects/default/features', jsonOf(7 * MB));
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(INTERNAL_ERROR);
  });

  it('answers an 11 MB body to a real route 413', async () => {
    const response = await post('/api/admin/projects/default/features', jsonOf(11 * MB));
    expect(response.status).toBe(413);
  });

  it('answers a real route whose answer grows over 6 MB (the segment list) 500, as Lambda fails it', async () => {
    // 70 segments of ~95 KB each (1,000 values, the most a segment may hold): a list of ~6.6 MB.
    const values = Array.from({ length: 1000 }, (_, i) => `${String(i).padStart(4, '0')}${'v'.repeat(86)}`);
    const prefix = unique('big');
    for (let i = 0; i < 70; i += 1) {
      // Each create writes ~95 KB to the one SEGMENTS partition: DynamoDB (and AWS_LIKE_DYNAMODB=1)
      // throttles that beyond 1,000 write units a second, a 503 that wrote nothing.
      const created = await resendWhileUnavailable(() => post('/api/admin/segments', JSON.stringify({
        name: `${prefix}-${i}`, constraints: [{ contextName: 'userId', operator: 'IN', values }],
      })));
      expect(created.status).toBe(201);
    }
    const list = await fetch(`${server.url}/api/admin/segments`, { headers: { authorization: adminSecret } });
    expect(list.status).toBe(500);
    expect(await list.json()).toEqual(INTERNAL_ERROR);
  });

  it('lets the function answer a body under 6 MB itself (its own 413 ContentTooLarge)', async () => {
    const response = await post('/api/admin/projects/default/features', jsonOf(1 * MB));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ name: 'ContentTooLarge' });
  });
});
