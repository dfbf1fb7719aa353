/**
 * What clients see when many admin writes run at once against an engine that applies
 * DynamoDB's conflict rules: `node --import tsx scripts/write-conflicts.ts`.
 * Starts its own DynamoDB Local and AWS-like engine (knobs: AWS_LIKE_DYNAMODB_* as in
 * engine.ts; the switch itself is implied), runs the scenarios through the real group
 * handlers with API Gateway events, prints the answers' statuses and the engine's counts,
 * and stops both engines.
 * Scenarios (issue 13, finding 3): 200 parallel creates of 200 different features;
 * 50 parallel strategy additions on one feature.
 * All requests share this one process, so they take longer than each would in its own Lambda
 * instance, and the request deadline (lib/time-budget.ts) refuses late writes with 503s that a
 * Lambda would not see; MEASURE_TIMEOUT_MS (default the function's timeout) gives each request
 * a longer one, so that only conflicts decide.
 */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import { createServices } from '../local/app-services.js';
import { createComposition } from '../lib/composition/composition.js';
import { loadConfig } from '../lib/config.js';
import { GROUPS, type Group } from '../lib/http/route.js';
import { routeTable } from '../lib/route-table.js';
import { prepareLocalTable } from '../lib/store/create-table.js';
import { FUNCTION_TIMEOUT_MS } from '../lib/time-budget.js';
import { formatSecret } from '../lib/tokens/model.js';
import { everyGroupHandler } from '../functions/registry.js';
import { localContext, toApiGatewayEvent } from '../local/api-gateway-event.js';
import { startDynamoDbLocal } from '../local/dynamodb-local.js';
import { matchRoute } from '../local/match-route.js';
import { awsLikeOptionsFromEnv, startAwsLikeDynamoDb } from '../local/aws-like-dynamodb/engine.js';

const timeoutMs = Number(process.env.MEASURE_TIMEOUT_MS ?? FUNCTION_TIMEOUT_MS);
const local = await startDynamoDbLocal();
const aws = await startAwsLikeDynamoDb(awsLikeOptionsFromEnv({ ...process.env, AWS_LIKE_DYNAMODB: '1' }, local.endpoint, { defaultOn: true })!);
try {
  const tableName = `measure-${randomUUID().slice(0, 8)}`;
  await prepareLocalTable({ region: 'local', endpoint: aws.endpoint }, tableName);
  const services = createServices(createComposition(loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: aws.endpoint, AWS_REGION: 'local' })));
  await services.firstStart.ensure();
  const token = formatSecret(['*'], '*');
  await services.apiTokens.insertKnownSecret(token, { tokenName: 'measure', type: 'admin', environment: '*', projects: ['*'] });
  const handlers = everyGroupHandler(services.composition);

  const call = async (method: string, path: string, body?: unknown) => {
    const match = matchRoute(method, path);
    if (!match) throw new Error(`no route for ${method} ${path}`);
    const spec = routeTable[match.operationId];
    const event = toApiGatewayEvent({
      method, url: path, headers: { Authorization: token, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: Buffer.from(body ? JSON.stringify(body) : ''), routeKey: `${spec.method} ${spec.path}`, pathParameters: match.params, sourceIp: '127.0.0.1',
    });
    const result = (await handlers[spec.group](event, localContext(`measure-${spec.group}`, timeoutMs))) as APIGatewayProxyStructuredResultV2;
    return { status: result.statusCode ?? 200, body: result.body ?? '' };
  };

  const scenario = async (name: string, requests: Array<() => Promise<{ status: number; body: string }>>) => {
    const before = aws.stats();
    const answers = await Promise.all(requests.map((request) => request()));
    const after = aws.stats();
    const statuses: Record<string, number> = {};
    for (const { status, body } of answers) {
      const label = status >= 500 ? `${status} ${String(JSON.parse(body || '{}').message ?? '').replace(/ Quote request id.*$/, '').slice(0, 70)}` : String(status);
      statuses[label] = (statuses[label] ?? 0) + 1;
    }
    const delta = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof typeof before]]));
    console.log(JSON.stringify({ scenario: name, timeoutMs, statuses, engine: delta }));
  };

  const run = randomUUID().slice(0, 6);
  await scenario('200 parallel creates of 200 different features', Array.from({ length: 200 }, (_, i) => () =>
    call('POST', '/api/admin/projects/default/features', { name: `measure-${run}-${i}` })));
  const contended = `contended-${run}`;
  const created = await call('POST', '/api/admin/projects/default/features', { name: contended });
  if (created.status !== 201) throw new Error(`feature not created: ${created.status} ${created.body}`);
  await scenario('50 parallel strategy additions on one feature', Array.from({ length: 50 }, (_, i) => () =>
    call('POST', `/api/admin/projects/default/features/${contended}/environments/development/strategies`, { name: 'default', title: `s-${i}` })));
} finally {
  await aws.stop();
  await local.stop();
}
