import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ServiceUnavailable } from '../../lib/errors.js';
import { runWithDeadline, WrittenBeforeFailure } from '../../lib/request-deadline.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import { FUNCTION_TIMEOUT_MS, WRITE_BUDGET_MS } from '../../lib/time-budget.js';
import { localContext } from '../../local/api-gateway-event.js';
import { adminSession } from '../support/api.js';
import { featureSteps } from '../support/features.js';
import { unique } from '../support/services.js';

const { services, call, token } = adminSession();
const steps = featureSteps(call, token);

/** A Lambda context that reports `ms` of the invocation left, however long the request runs. */
const contextWith = (ms: number): Context => ({ ...localContext('test-deadline'), getRemainingTimeInMillis: () => ms });

const strategiesIn = async (project: string, feature: string, environment: string) =>
  ((await services.featureStore.get(feature))?.environments[environment]?.strategies ?? []).map((s) => s.title);

describe('a request near the end of its function time', () => {
  it('refuses a write it could not finish in time: 503 with Retry-After, and nothing is stored', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);
    const before = await services.featureStore.get(feature);

    const res = await call({
      method: 'POST', path: `${steps.base(project, feature)}/environments/development/strategies`, token,
      body: { name: 'default', title: 'too-late' }, context: contextWith(WRITE_BUDGET_MS - 1),
    });

    expect(res.status, res.text).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({ name: 'ServiceUnavailable', message: expect.stringContaining('nothing was changed') });
    expect(await strategiesIn(project, feature, 'development')).toEqual([]);
    expect((await services.featureStore.get(feature))?.version).toBe(before?.version);
  });

  it('stores the same change when the function has its full time', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);

    const res = await call({
      method: 'POST', path: `${steps.base(project, feature)}/environments/development/strategies`, token,
      body: { name: 'default', title: 'in-time' }, context: contextWith(FUNCTION_TIMEOUT_MS),
    });

    expect(res.status, res.text).toBe(200);
    expect(await strategiesIn(project, feature, 'development')).toEqual(['in-time']);
  });

  it('answers 503 with Retry-After, not 500, when the time is up before the handler finishes', async () => {
    const project = await steps.createProject();
    const feature = await steps.createFeature(project);

    // The chain's early answer is due at once, before the handler's first read comes back; the
    // handler that keeps running meets the refusal above when it reaches its write.
    const res = await call({
      method: 'POST', path: `${steps.base(project, feature)}/environments/development/strategies`, token,
      body: { name: 'default', title: 'out-of-time' }, context: contextWith(1),
    });

    expect(res.status, res.text).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.name).toBe('ServiceUnavailable');
  });
});

describe('a store that accepts connections but never answers', () => {
  let server: Server;
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails the call as unavailable after the request timeout instead of waiting for ever', { timeout: 60_000 }, async () => {
    const { port } = server.address() as AddressInfo;
    const db = createDocumentClient({ region: 'local', endpoint: `http://127.0.0.1:${port}` });

    const outcome = db.send(new GetCommand({ TableName: 'hanging', Key: { pk: 'a', sk: 'b' } }));

    await expect(outcome).rejects.toBeInstanceOf(ServiceUnavailable);
    db.destroy();
  });
});

describe('a request that fails after one of its writes was stored', () => {
  const db = () => createDocumentClient({ region: 'local', endpoint: inject('dynamodb').endpoint });
  const table = () => inject('dynamodb').tableName;
  const unavailable = () => new ServiceUnavailable('The data store is not reachable right now; try again in a moment');
  const far = () => Date.now() + FUNCTION_TIMEOUT_MS;

  it('is not answered "nothing was changed": the client is told to check before resending', async () => {
    const client = db();
    const failure = await runWithDeadline(far(), async () => {
      await client.send(new PutCommand({ TableName: table(), Item: { pk: unique('change'), sk: 'item' } }));
      throw unavailable();
    }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(WrittenBeforeFailure);
    expect((failure as Error).message).toMatch(/check the current state before sending it again/);
    client.destroy();
  });

  it('keeps "nothing was changed" when only bookkeeping (an id counter) or a refused condition was written', async () => {
    const client = db();
    const failure = await runWithDeadline(far(), async () => {
      await client.send(new UpdateCommand({
        TableName: table(), Key: keys.counter(unique('kind')), UpdateExpression: 'ADD #next :one',
        ExpressionAttributeNames: { '#next': 'next' }, ExpressionAttributeValues: { ':one': 1 },
      }));
      await client.send(new PutCommand({
        TableName: table(), Item: { pk: unique('refused'), sk: 'item' }, ConditionExpression: 'attribute_exists(pk)',
      })).catch(() => undefined);
      throw unavailable();
    }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ServiceUnavailable);
    expect(failure).not.toBeInstanceOf(WrittenBeforeFailure);
    client.destroy();
  });
});
