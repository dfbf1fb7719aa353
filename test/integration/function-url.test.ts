import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initialize, InMemStorageProvider, type Unleash } from 'unleash-client';
import { groupHandlerOf, type LambdaHandler } from '../../lib/composition/function-handler.js';
import type { Services } from '../../local/app-services.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { functionDefinitions } from '../../functions/registry.js';
import { localContext } from '../../local/api-gateway-event.js';
import {
  FUNCTION_URL_ANSWERS, LOCAL_FUNCTION_URL_HOST, localFrontDoor, startFunctionUrlServer, toFunctionUrlEvent,
} from '../../local/function-url.js';
import { startHttpServer, type LocalServer } from '../../local/http-server.js';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime.js';
import { adminOverHttp } from '../support/api.js';
import { runStartToExit, startServerProcess, stopStartedServers } from '../support/local-server.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { sdkToken } from '../support/client.js';

/**
 * The SDK front door `-c sdkFrontDoor=functionUrl` (infra/constructs/sdk-function-url.ts): a
 * Lambda function URL on the client function. The URL sends every path to that function as a
 * payload 2.0 event with the route key `$default` and no path parameters, so the function routes
 * by method and path itself, and answers the interface's 404 for anything outside the SDK API.
 */
describe('the client function behind a Lambda function URL', () => {
  describe('given the events a function URL builds', () => {
    let services: Services;
    let client: LambdaHandler;
    let admin: string;
    let sdk: string;

    beforeAll(async () => {
      services = testServices();
      client = groupHandlerOf(functionDefinitions['client'], services.composition);
      admin = await adminToken(services);
      sdk = await sdkToken(services);
    });

    async function call(method: string, url: string, init: { token?: string; body?: unknown } = {}) {
      const event = toFunctionUrlEvent({
        method,
        url,
        headers: {
          host: LOCAL_FUNCTION_URL_HOST,
          authorization: init.token ?? sdk,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: Buffer.from(init.body === undefined ? '' : JSON.stringify(init.body)),
        sourceIp: '198.51.100.7',
      });
      expect(event.routeKey).toBe('$default');
      expect(event.pathParameters).toBeUndefined();
      const result = (await client(event, localContext('test'))) as APIGatewayProxyStructuredResultV2;
      return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
    }

    it('serves the SDK poll', async () => {
      const res = await call('GET', '/api/client/features');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 2, features: expect.any(Array) });
    });

    it('names the matched route in the event, as API Gateway would, so error logs say which route failed', async () => {
      const event = toFunctionUrlEvent({
        method: 'GET', url: '/api/client/features/x%3Ay', headers: { authorization: sdk }, body: Buffer.alloc(0), sourceIp: '198.51.100.7',
      });

      await client(event, localContext('test'));

      expect(event.routeKey).toBe('GET /api/client/features/{featureName}');
      expect(event.requestContext.routeKey).toBe('$default');
      expect(event.pathParameters).toEqual({ featureName: 'x:y' });
    });

    it.each([['a space', 'url flag'], ['reserved characters decodeURI keeps encoded', 'url:flag/x?y#z']])(
      'takes the path parameter from rawPath, decoded as API Gateway hands it (%s)',
      async (_, prefix) => {
        const name = unique(prefix);
        const res = await call('GET', `/api/client/features/${encodeURIComponent(name)}`);

        expect(res.status).toBe(404);
        expect(res.body.name).toBe('NotFoundError');
        expect(res.body.message).toBe(`Could not find feature toggle ${name}`);
      },
    );

    it('takes SDK reports', async () => {
      const appName = unique('url-app');
      const register = await call('POST', '/api/client/register', {
        body: { appName, instanceId: 'i-1', strategies: ['default'], interval: 15_000, started: new Date().toISOString() },
      });

      expect(register.status).toBe(202);
      expect(await services.clientApplications.get(appName)).toMatchObject({ appName, instanceId: 'i-1', strategies: ['default'] });
    });

    it('still checks the Unleash token, as behind API Gateway', async () => {
      const res = await call('GET', '/api/client/features', { token: 'not-a-token' });

      expect(res.status).toBe(401);
      expect(res.body.name).toBe('AuthenticationRequired');
      expect(res.body.message).toContain('unknown or has expired');
      expect(res.body.features).toBeUndefined();
    });

    it.each([
      ['GET', '/api/admin/projects'],
      ['GET', '/api/admin/features'],
      ['POST', '/api/admin/api-tokens'],
      ['GET', '/health'],
      ['GET', '/'],
      ['DELETE', '/api/client/features'],
    ])('answers %s %s, outside the SDK API, with the interface\'s 404 even for an admin token', async (method, path) => {
      const res = await call(method, path, { token: admin, ...(method === 'POST' ? { body: {} } : {}) });

      expect(res.status).toBe(404);
      expect(res.body).toEqual({ id: expect.any(String), name: 'NotFoundError', message: `The path you were looking for (${path}) is not available.` });
    });
  });

  describe('the local front door LOCAL_FRONT_DOOR=functionUrl', () => {
    const adminSecret = formatSecret(['*'], '*');
    let runtime: LocalRuntime;
    let server: LocalServer;
    let functionUrl: LocalServer;

    beforeAll(async () => {
      runtime = await startLocalRuntime({
        inMemory: true,
        dataDir: '.data',
        env: { DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('url'), INIT_ADMIN_API_TOKENS: adminSecret },
      });
      server = await startHttpServer(runtime.handlers, { port: 0 });
      functionUrl = await startFunctionUrlServer(runtime.handlers.client, { port: 0 });
    });

    afterAll(async () => {
      await functionUrl?.close();
      await server?.close();
      await runtime?.stop();
    });

    const admin = adminOverHttp(() => server.url, adminSecret);

    it('is read from LOCAL_FRONT_DOOR: apiGateway by default, functionUrl on request, nothing else', () => {
      expect(localFrontDoor({})).toBe('apiGateway');
      expect(localFrontDoor({ LOCAL_FRONT_DOOR: 'functionUrl' })).toBe('functionUrl');
      expect(() => localFrontDoor({ LOCAL_FRONT_DOOR: 'cloudfront' })).toThrow(/LOCAL_FRONT_DOOR must be apiGateway or functionUrl/);
    });

    it('syncs the official Node SDK pointed at <function URL>/api, which registers, evaluates and reports', async () => {
      const project = unique('url');
      const name = unique('flag');
      await admin('POST', '/api/admin/projects', { id: project, name: project });
      await admin('POST', `/api/admin/projects/${project}/features`, { name });
      await admin('POST', `/api/admin/projects/${project}/features/${name}/environments/development/strategies`, {
        name: 'flexibleRollout', parameters: { rollout: '100', stickiness: 'default', groupId: name }, constraints: [],
      });
      await admin('POST', `/api/admin/projects/${project}/features/${name}/environments/development/on`);
      const token = await admin('POST', '/api/admin/api-tokens', {
        tokenName: unique('sdk'), type: 'client', environment: 'development', projects: [project],
      });

      const errors: unknown[] = [];
      const events: string[] = [];
      let unleash: Unleash | undefined;
      try {
        unleash = initialize({
          url: `${functionUrl.url}/api`,
          appName: unique('url-app'),
          customHeaders: { Authorization: token.secret },
          refreshInterval: 300,
          metricsInterval: 60_000,
          projectName: project,
          storageProvider: new InMemStorageProvider(),
        });
        unleash.on('error', (error: unknown) => errors.push(error));
        for (const event of ['registered', 'changed']) unleash.on(event, () => events.push(event));
        const sdk = unleash;
        await new Promise<void>((resolve) => sdk.once('synchronized', () => resolve()));

        expect(unleash.isEnabled(name)).toBe(true);
        expect(unleash.isEnabled(unique('unknown'))).toBe(false);
        await expect.poll(() => events).toContain('registered');
      } finally {
        unleash?.destroy();
      }
      expect(errors).toEqual([]);
    });

    it('answers an admin path sent to the client function\'s URL with the interface\'s 404, never the admin API', async () => {
      const viaUrl = await fetch(`${functionUrl.url}/api/admin/projects`, { headers: { Authorization: adminSecret } });
      const viaGateway = await fetch(`${server.url}/api/admin/projects`, { headers: { Authorization: adminSecret } });

      expect(viaUrl.status).toBe(404);
      expect(await viaUrl.json()).toMatchObject({ name: 'NotFoundError', message: 'The path you were looking for (/api/admin/projects) is not available.' });
      expect(viaGateway.status).toBe(200);
    });

    it('refuses a request Lambda could not take as one event (6 MB) with the function URL\'s own answer', async () => {
      const res = await fetch(`${functionUrl.url}/api/client/metrics`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: 'x'.repeat(6 * 1024 * 1024 + 1),
      });

      expect(res.status).toBe(FUNCTION_URL_ANSWERS.requestTooLarge.statusCode);
      // The URL's own body, not one of the interface's errors (those carry a name): the function never ran.
      expect(await res.json()).toEqual({ message: 'Request Entity Too Large' });
    });

    it('throttles only by the function\'s concurrency: 429 once its reserved concurrency is in use', async () => {
      let finish: () => void = () => undefined;
      let entered: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (finish = resolve));
      const running = new Promise<void>((resolve) => (entered = resolve));
      const slow: LambdaHandler = async () => {
        entered();
        await held;
        return { statusCode: 200, body: '{}' };
      };
      const limited = await startFunctionUrlServer(slow, { port: 0, concurrency: 1 });
      try {
        const first = fetch(`${limited.url}/api/client/features`);
        // The first invocation holds the only slot until `finish`.
        await running;
        const second = await fetch(`${limited.url}/api/client/features`);
        finish();

        expect(second.status).toBe(429);
        expect(await second.json()).toEqual({ message: 'Too Many Requests' });
        const answered = await first;
        expect(answered.status).toBe(200);
        // The held invocation's own answer came through once it finished.
        expect(await answered.json()).toEqual({});
      } finally {
        finish();
        await limited.close();
      }
    });
  });

  describe('npm start with LOCAL_FRONT_DOOR=functionUrl', () => {
    afterAll(stopStartedServers);

    it('also serves the client function\'s URL, named in the banner, and stops it on SIGTERM', async () => {
      const adminSecret = formatSecret(['*'], '*');
      const server = await startServerProcess({
        DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, TABLE_NAME: unique('url-start'), INIT_ADMIN_API_TOKENS: adminSecret,
        LOCAL_FRONT_DOOR: 'functionUrl', FUNCTION_URL_PORT: '0',
      }, ['--in-memory']);
      await expect.poll(() => server.output()).toMatch(/SDK function URL/);
      const [, url] = /SDK function URL \(LOCAL_FRONT_DOOR=functionUrl\): (http:\/\/127\.0\.0\.1:\d+)\/ \(SDKs use \1\/api\)/.exec(server.output()) ?? [];

      expect(url).toBeDefined();
      const poll = await fetch(`${url}/api/client/features`, { headers: { Authorization: adminSecret } });
      expect(poll.status).toBe(200);
      expect((await fetch(`${url}/api/admin/projects`, { headers: { Authorization: adminSecret } })).status).toBe(404);
      expect(await server.stop()).toBe(0);
    });

    it('refuses a front door it does not know, in one line', async () => {
      const { code, output } = await runStartToExit({ DYNAMODB_ENDPOINT: inject('dynamodb').endpoint, LOCAL_FRONT_DOOR: 'cloudfront' }, ['--in-memory']);

      expect(code).not.toBe(0);
      expect(output).toContain('LOCAL_FRONT_DOOR must be apiGateway or functionUrl');
    });
  });
});
