import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { initialize, InMemStorageProvider, type Unleash } from 'unleash-client';
import { GROUPS, type Group } from '../../lib/http/route.js';
import { routeTable, type OperationId } from '../../lib/route-table.js';
import { groupHandlerOf, type LambdaHandler } from '../../lib/composition/function-handler.js';
import type { Services } from '../../local/app-services.js';
import { formatSecret } from '../../lib/tokens/model.js';
import { functionDefinitions } from '../../functions/registry.js';
import { localContext, toApiGatewayEvent } from '../../local/api-gateway-event.js';
import { startHttpServer, type LocalServer } from '../../local/http-server.js';
import { startLocalRuntime, type LocalRuntime } from '../../local/runtime.js';
import { adminToken, testServices, unique } from '../support/services.js';
import { adminOverHttp } from '../support/api.js';

/**
 * A custom domain with an API mapping key (`https://flags.example.com/toggles/...` mapped to the
 * `$default` stage under `toggles`): API Gateway matches the route below the key and hands the
 * function the route key and path parameters of that route, while `rawPath` and
 * `requestContext.http.path` keep the whole path (a named stage's `/prod` likewise). The
 * functions must answer the route API Gateway chose, whatever precedes it in the URL.
 */
describe('behind a custom domain with an API mapping key', () => {
  describe('a function given the events API Gateway builds', () => {
    let services: Services;
    let handlers: Record<Group, LambdaHandler>;
    let admin: string;

    beforeAll(async () => {
      services = testServices();
      handlers = Object.fromEntries(
        GROUPS.map((group) => [group, groupHandlerOf(functionDefinitions[group], services.composition)]),
      ) as Record<Group, LambdaHandler>;
      admin = await adminToken(services);
    });

    /** The event for `operationId`, its path as the client sent it under `prefix` ('' = the execute-api URL). */
    async function invoke(
      operationId: OperationId,
      prefix: string,
      path: string,
      pathParameters: Record<string, string> = {},
      init: { method?: string; body?: unknown; token?: string } = {},
    ) {
      const spec = routeTable[operationId];
      const event: APIGatewayProxyEventV2 = toApiGatewayEvent({
        method: init.method ?? spec.method,
        url: `${prefix}${path}`,
        headers: {
          host: prefix ? 'flags.example.com' : 'abc123.execute-api.eu-west-1.amazonaws.com',
          authorization: init.token ?? admin,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: Buffer.from(init.body === undefined ? '' : JSON.stringify(init.body)),
        routeKey: `${spec.method} ${spec.path}`,
        pathParameters,
        sourceIp: '198.51.100.7',
      });
      const result = (await handlers[spec.group](event, localContext('test'))) as APIGatewayProxyStructuredResultV2;
      return { status: result.statusCode, body: result.body ? JSON.parse(result.body) : undefined };
    }

    // The mapping key as it reaches the function (kept in rawPath, as reported for HTTP APIs),
    // a two-level key, a named stage, and no prefix at all (the execute-api URL, `$default` stage).
    const prefixes = ['/toggles', '/flags/v1', '/prod', ''];

    it.each(prefixes)('answers a literal route under "%s"', async (prefix) => {
      const res = await invoke('listProjects', prefix, '/api/admin/projects');

      expect(res.status).toBe(200);
      expect(res.body.projects.map((p: { id: string }) => p.id)).toContain('default');
    });

    it.each(prefixes)('answers a route with path parameters under "%s", taking them from API Gateway', async (prefix) => {
      const id = unique('params');
      await invoke('createProject', '', '/api/admin/projects', {}, { body: { id, name: `named ${id}` } });

      const res = await invoke('getProjectOverview', prefix, `/api/admin/projects/${id}`, { projectId: id });

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: `named ${id}` });
    });

    it.each(prefixes)('runs a write with a body under "%s"', async (prefix) => {
      const id = unique('mapped');
      const res = await invoke('createProject', prefix, '/api/admin/projects', {}, { body: { id, name: id } });

      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id });
    });

    it.each(prefixes)('serves the SDK poll under "%s"', async (prefix) => {
      const res = await invoke('getClientFeatures', prefix, '/api/client/features');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ version: 2, features: expect.any(Array) });
    });

    it.each(prefixes)('answers an unknown /api path under "%s" with the service\'s 404, naming the path below the key', async (prefix) => {
      const res = await invoke('unknownApiPath', prefix, '/api/admin/no-such-thing', { proxy: 'admin/no-such-thing' }, { method: 'GET' });

      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ name: 'NotFoundError' });
      expect(res.body.message).toContain('/api/admin/no-such-thing');
      if (prefix) expect(res.body.message).not.toContain(`${prefix}/api`);
    });

    it('still routes an event without a route key (built by hand) by its path', async () => {
      const event = toApiGatewayEvent({
        method: 'GET', url: '/api/admin/projects/default', headers: { authorization: admin }, body: Buffer.alloc(0),
        routeKey: '$default', pathParameters: {}, sourceIp: '127.0.0.1',
      });

      const result = (await handlers.projects(event, localContext('test'))) as APIGatewayProxyStructuredResultV2;

      expect(result.statusCode).toBe(200);
      expect(JSON.parse(result.body ?? '')).toMatchObject({ version: 1, name: expect.any(String) });
    });
  });

  describe('the local server playing the custom domain (API_MAPPING_KEY=toggles)', () => {
    const adminSecret = formatSecret(['*'], '*');
    let runtime: LocalRuntime;
    let server: LocalServer;
    let base: string;

    beforeAll(async () => {
      runtime = await startLocalRuntime({
        inMemory: true,
        dataDir: '.data',
        env: {
          DYNAMODB_ENDPOINT: inject('dynamodb').endpoint,
          TABLE_NAME: unique('mapped'),
          INIT_ADMIN_API_TOKENS: adminSecret,
          API_MAPPING_KEY: 'toggles',
        },
      });
      server = await startHttpServer(runtime.handlers, { port: 0, apiMappingKey: runtime.apiMappingKey });
      base = `${server.url}/toggles`;
    });

    afterAll(async () => {
      await server?.close();
      await runtime?.stop();
    });

    const admin = adminOverHttp(() => base, adminSecret);

    it('serves the admin API under the key, and the key as the service\'s base path', async () => {
      expect((await admin('GET', '/api/admin/projects')).projects.map((p: { id: string }) => p.id)).toContain('default');
      expect(await admin('GET', '/api/admin/ui-config')).toMatchObject({ baseUriPath: '/toggles' });
      const anonymous = await fetch(`${base}/api/admin/projects`);
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { message: string }).message).toContain('/toggles/auth/simple/login');
    });

    it('serves the docs page with its files and its document under the key', async () => {
      const page = await fetch(`${base}/docs`);
      const html = await page.text();
      const linked = [...html.matchAll(/(?:src|href)="([^"]+)"|url: "([^"]+)"/g)].map(([, attribute, url]) => attribute ?? url);

      expect(page.status).toBe(200);
      expect(linked.sort()).toEqual(['/toggles/docs/openapi.json', '/toggles/docs/swagger-ui-bundle.js', '/toggles/docs/swagger-ui.css']);
      for (const path of linked) expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    });

    it('answers API Gateway\'s own 404 outside the key, and the service\'s 404 for an unknown path under it', async () => {
      const outside = await fetch(`${server.url}/api/admin/projects`, { headers: { Authorization: adminSecret } });
      const unknown = await fetch(`${base}/api/admin/no-such-thing`, { headers: { Authorization: adminSecret } });

      expect(outside.status).toBe(404);
      expect(await outside.json()).toEqual({ message: 'Not Found' });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ name: 'NotFoundError', message: expect.stringContaining('/api/admin/no-such-thing') });
    });

    it('syncs the official Node SDK pointed at http://127.0.0.1:<port>/toggles/api, which registers and evaluates', async () => {
      const project = unique('mapped');
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
          url: `${base}/api`,
          appName: unique('mapped-app'),
          customHeaders: { Authorization: token.secret },
          refreshInterval: 300,
          metricsInterval: 60_000,
          projectName: project,
          storageProvider: new InMemStorageProvider(),
        });
        unleash.on('error', (error: unknown) => errors.push(error));
        for (const event of ['registered', 'changed']) unleash.on(event, () => events.push(event));
        const sdk = unleash;
        await new Promise<void>((resolve, reject) => {
          sdk.once('synchronized', () => resolve());
          setTimeout(() => reject(new Error(`no sync: ${JSON.stringify(errors.map(String))}`)), 10_000);
        });

        expect(unleash.isEnabled(name)).toBe(true);
        expect(unleash.isEnabled(unique('unknown'))).toBe(false);
        await expect.poll(() => events).toContain('registered');
      } finally {
        unleash?.destroy();
      }
      expect(errors).toEqual([]);
    });
  });
});
