import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
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

describe('a call that waits for its turn', () => {
  // A gate of each test's own: the engine holds every GetItem until the test opens it.
  let release: () => void = () => undefined;
  let released: Promise<void> = Promise.resolve();
  let heldReads = 0;
  let allHeld: Promise<void> = Promise.resolve();
  let reachedEngine: () => void = () => undefined;
  const arrived: string[] = [];
  let db: ReturnType<typeof createDocumentClient>;

  beforeAll(async () => {
    ({ db } = await engineWith({
      delay: (operation) => {
        arrived.push(operation);
        if (operation !== 'GetItem') return undefined;
        heldReads += 1;
        if (heldReads === LOCAL_REQUESTS_AT_ONCE) reachedEngine();
        return released;
      },
    }));
  });

  beforeEach(() => {
    heldReads = 0;
    released = new Promise<void>((resolve) => (release = resolve));
    allHeld = new Promise<void>((resolve) => (reachedEngine = resolve));
  });

  afterEach(() => release());

  /** Every turn taken by a read the engine holds until the test lets it go. */
  async function takeEveryTurn(key: { pk: string; sk: string }) {
    const reads = Array.from({ length: LOCAL_REQUESTS_AT_ONCE }, () => db.send(new GetCommand({ TableName: table(), Key: key })));
    await allHeld;
    return reads;
  }

  it('is refused unsent when its request ran short of time while it waited: 503, nothing stored', async () => {
    const key = { pk: unique('late'), sk: 'item' };
    const reads = await takeEveryTurn(key);

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

  it('is not sent at all when its request\'s time ended while it waited, as Lambda stops the invocation', async () => {
    const key = { pk: unique('stopped'), sk: 'item' };
    const reads = await takeEveryTurn(key);
    const readsArrived = arrived.length;

    const deadline = Date.now() + 200;
    const outcome = runWithDeadline(deadline, () => db.send(new GetCommand({ TableName: table(), Key: key })))
      .then(() => 'answered', (error: unknown) => error);
    while (Date.now() <= deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    release();

    expect(await outcome).toBeInstanceOf(ServiceUnavailable);
    await Promise.all(reads);
    expect(arrived.length).toBe(readsArrived);
  });
});
