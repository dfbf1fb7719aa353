import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ServiceUnavailable } from '../../lib/errors.js';
import { runWithDeadline, TooLateToWrite } from '../../lib/request-deadline.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { LOCAL_REQUESTS_AT_ONCE } from '../../lib/store/local-request-queue.js';
import { STORE_CONNECTION_TIMEOUT_MS, WRITE_BUDGET_MS } from '../../lib/time-budget.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { unique } from '../support/services.js';

/**
 * The local runtime serves every invocation through one client, so a burst of parallel requests
 * puts more DynamoDB requests on it than it sends at once (lib/store/local-request-queue.ts).
 * Those wait for their turn; the wait is neither a connection that failed nor DynamoDB's time.
 */
const table = () => inject('dynamodb').tableName;
const engines: AwsLikeEngine[] = [];

async function engineWith(options: Omit<Parameters<typeof startAwsLikeDynamoDb>[0], 'target'>) {
  const engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint, ...options });
  engines.push(engine);
  return { engine, db: createDocumentClient({ region: 'local', endpoint: engine.endpoint }) };
}

afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.stop()));
});

describe('more requests at once than a local client sends', () => {
  // Every request spends a second at the engine, so the fourth fifty start at least three
  // seconds after they were made: longer than the connection timeout, which counted that wait
  // when the requests queued in the SDK's agent (108 of 200 parallel creates answered 503 on a
  // loaded machine).
  const LATENCY_MS = 1_000;
  const REQUESTS = 4 * LOCAL_REQUESTS_AT_ONCE;
  let engine: AwsLikeEngine;
  let db: ReturnType<typeof createDocumentClient>;

  beforeAll(async () => {
    ({ engine, db } = await engineWith({ latencyRate: 1, latencyMs: LATENCY_MS, seed: 29 }));
  });

  it('answers every one, sending no more than its share at once, though the last wait longer than a connection may take', async () => {
    expect(LATENCY_MS * (REQUESTS / LOCAL_REQUESTS_AT_ONCE - 1)).toBeGreaterThan(STORE_CONNECTION_TIMEOUT_MS);
    const key = { pk: unique('queued'), sk: 'item' };
    await db.send(new PutCommand({ TableName: table(), Item: { ...key, value: 'stored' } }));

    const answers = await Promise.allSettled(
      Array.from({ length: REQUESTS }, () => db.send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))),
    );

    const failures = answers.flatMap((answer) => (answer.status === 'rejected' ? [String(answer.reason)] : []));
    expect(failures).toEqual([]);
    expect(answers.map((answer) => answer.status === 'fulfilled' && answer.value.Item?.value)).toEqual(Array(REQUESTS).fill('stored'));
    expect(engine.stats().mostAtOnce).toBeLessThanOrEqual(LOCAL_REQUESTS_AT_ONCE);
  });
});

describe('a write that waits for its turn', () => {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrived: string[] = [];
  let reachedEngine: () => void = () => undefined;
  const allHeld = new Promise<void>((resolve) => (reachedEngine = resolve));
  let db: ReturnType<typeof createDocumentClient>;

  beforeAll(async () => {
    ({ db } = await engineWith({
      delay: (operation) => {
        arrived.push(operation);
        if (operation !== 'GetItem') return undefined;
        if (arrived.filter((name) => name === 'GetItem').length === LOCAL_REQUESTS_AT_ONCE) reachedEngine();
        return released;
      },
    }));
  });

  afterAll(() => release());

  it('is refused unsent when its request ran short of time while it waited: 503, nothing stored', async () => {
    const key = { pk: unique('late'), sk: 'item' };
    // Every turn taken by a read the engine holds until the test lets it go.
    const reads = Array.from({ length: LOCAL_REQUESTS_AT_ONCE }, () => db.send(new GetCommand({ TableName: table(), Key: key })));
    await allHeld;

    // The write starts with its budget and a second to spare; its turn comes only once the
    // reads are let go, after that second is gone.
    const deadline = Date.now() + WRITE_BUDGET_MS + 1_000;
    const write = runWithDeadline(deadline, () => db.send(new PutCommand({ TableName: table(), Item: { ...key, value: 'late' } })));
    const outcome = write.then(() => 'stored', (error: unknown) => error);
    while (Date.now() < deadline - WRITE_BUDGET_MS + 100) await new Promise((resolve) => setTimeout(resolve, 50));
    release();

    const refusal = await outcome;
    expect(refusal).toBeInstanceOf(TooLateToWrite);
    expect(refusal).toBeInstanceOf(ServiceUnavailable);
    await Promise.all(reads);
    expect(arrived.filter((operation) => operation === 'PutItem')).toEqual([]);
    expect((await db.send(new GetCommand({ TableName: table(), Key: key, ConsistentRead: true }))).Item).toBeUndefined();
  });
});
