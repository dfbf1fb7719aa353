/**
 * Which source files one warm request runs, and its DynamoDB requests: the SDK poll and a
 * feature strategy's creation, each on a composition of its own function only (as a Lambda
 * container has). V8's precise coverage is reset after a warm-up request, so a file counts
 * when any of its functions ran during the measured one.
 * `npm run bench` reports them; `npm run bench:walks` alone.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { functionDefinitions } from '../../functions/registry.js';
import { createComposition } from '../../lib/composition/composition.js';
import { groupHandlerOf } from '../../lib/composition/function-handler.js';
import type { Group } from '../../lib/http/route.js';
import { routeTable } from '../../lib/route-table.js';
import { countsSince } from '../../lib/store/request-counter.js';
import { localContext, toApiGatewayEvent } from '../api-gateway-event.js';
import { matchRoute } from '../match-route.js';
import { startLocalRuntime } from '../runtime.js';

const root = join(fileURLToPath(import.meta.url), '../../..');

interface Walk {
  name: string;
  group: Group;
  request: (attempt: number) => { method: string; path: string; token: string; body?: unknown; headers?: Record<string, string> };
}

export interface WalkReport {
  name: string;
  files: string[];
  folders: string[];
  dynamoRequests: number;
  status: number;
}

/** Measures each walk on a runtime of its own (the embedded engine, in memory). */
export async function measureWalks(): Promise<WalkReport[]> {
  const clientToken = `*:development.${randomBytes(28).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'toggles-walks-'));
  const runtime = await startLocalRuntime({ inMemory: true, dataDir, env: { ...process.env, INIT_CLIENT_API_TOKENS: clientToken } });
  const session = new Session();
  session.connect();
  try {
    const admin = runtime.generatedAdminToken as string;
    const feature = `walk-${randomBytes(4).toString('hex')}`;
    const created = await call(runtime.handlers.features, { method: 'POST', path: '/api/admin/projects/default/features', token: admin, body: { name: feature } });
    if (created.statusCode !== 201) throw new Error(`creating the feature answered ${created.statusCode}`);
    const walks: Walk[] = [
      {
        name: 'warm SDK poll (GET /api/client/features, gzip)', group: 'client',
        request: () => ({ method: 'GET', path: '/api/client/features', token: clientToken, headers: { 'accept-encoding': 'gzip', 'unleash-client-spec': '5.2.0' } }),
      },
      {
        name: 'strategy write (POST /api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies)', group: 'features',
        request: (attempt) => ({
          method: 'POST', path: `/api/admin/projects/default/features/${feature}/environments/development/strategies`, token: admin,
          body: { name: 'flexibleRollout', parameters: { rollout: String(attempt), stickiness: 'default', groupId: feature } },
        }),
      },
    ];
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const reports: WalkReport[] = [];
    for (const walk of walks) {
      // A container of this function alone, on the same table: what a Lambda instance composes.
      const composition = createComposition(runtime.config);
      const handler = groupHandlerOf(functionDefinitions[walk.group], composition);
      await call(handler, walk.request(1));
      const measured = eventFor(walk.request(2));
      await session.post('Profiler.takePreciseCoverage');
      const before = composition.store.dynamoRequests.snapshot();
      const result = (await handler(measured, localContext('walks'))) as APIGatewayProxyStructuredResultV2;
      const { result: coverage } = await session.post('Profiler.takePreciseCoverage');
      const requests = countsSince(before, composition.store.dynamoRequests.snapshot()).total;
      const files = coverage
        .filter((script) => script.url.startsWith('file://') && script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
        .map((script) => relative(root, fileURLToPath(script.url)))
        .filter((file) => /^(lib|functions)\//.test(file))
        .sort();
      const folders = [...new Set(files.map((file) => file.split('/').slice(0, file.startsWith('lib/') && file.split('/').length > 2 ? 2 : 1).join('/')))].sort();
      reports.push({ name: walk.name, files, folders, dynamoRequests: requests, status: result.statusCode ?? 200 });
      composition.store.db.destroy();
    }
    return reports;
  } finally {
    session.disconnect();
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function call(
  handler: ReturnType<typeof groupHandlerOf>,
  request: { method: string; path: string; token: string; body?: unknown; headers?: Record<string, string> },
): Promise<APIGatewayProxyStructuredResultV2> {
  return (await handler(eventFor(request), localContext('walks'))) as APIGatewayProxyStructuredResultV2;
}

/** The event API Gateway would send, matched here before a measured request so the match is not counted. */
function eventFor(request: { method: string; path: string; token: string; body?: unknown; headers?: Record<string, string> }) {
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error(`no route for ${request.method} ${request.path}`);
  const text = request.body === undefined ? '' : JSON.stringify(request.body);
  return toApiGatewayEvent({
    method: request.method, url: request.path, body: Buffer.from(text), routeKey: `${routeTable[match.operationId].method} ${routeTable[match.operationId].path}`,
    headers: { authorization: request.token, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
    pathParameters: match.params, sourceIp: '127.0.0.1',
  });
}

/** The report's lines: each walk, its files' folders, and with `files` every file. */
export function walkLines(reports: WalkReport[], files = false): string {
  return reports.flatMap((report) => [
    `${report.name}: ${report.status}, ${report.files.length} files in ${report.folders.length} folders, ${report.dynamoRequests} DynamoDB requests`,
    `  folders: ${report.folders.join(' ')}`,
    ...(files ? report.files.map((file) => `    ${file}`) : []),
  ]).join('\n');
}
