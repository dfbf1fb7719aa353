import {
  BatchGetItemCommand, CreateTableCommand, DynamoDBClient, GetItemCommand, InternalServerError, PutItemCommand, ThrottlingException,
  TransactGetItemsCommand, TransactionCanceledException, TransactionConflictException, TransactWriteItemsCommand,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { itemSize, readUnits, writeUnits } from '../../local/aws-like-dynamodb/capacity.js';
import {
  AWS_LIKE_BY_DEFAULT, awsLikeEnabled, awsLikeOptionsFromEnv, startAwsLikeDynamoDb, type AwsLikeEngine, type AwsLikeOptions,
} from '../../local/aws-like-dynamodb/engine.js';
import { awsLikeInFront } from '../../local/aws-like-dynamodb/in-front.js';
import { unique } from '../support/services.js';

// The real SDK, over HTTP, to the AWS-like engine in front of the run's DynamoDB Local itself (never the
// run's own engine, in front of it unless AWS_LIKE_DYNAMODB=0: two engines would count twice). Nothing
// here depends on time: overlaps are made by holding a transaction until the test lets it go,
// and throughput windows follow a clock the test sets.
const table = unique('aws-like');
const engines: AwsLikeEngine[] = [];

async function engine(options: Partial<AwsLikeOptions> = {}): Promise<AwsLikeEngine> {
  const started = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint, transactionHoldMs: 0, ...options });
  engines.push(started);
  return started;
}

function client(endpoint: string, maxAttempts = 1): DynamoDBClient {
  return new DynamoDBClient({ region: 'local', endpoint, maxAttempts, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** A transaction the engine holds in flight until `release()`; `held` resolves once it holds its items. */
function gate() {
  let release!: () => void;
  let arrived!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = new Promise<void>((resolve) => (arrived = resolve));
  let used = false;
  return {
    held, release,
    hold: async () => {
      if (used) return;
      used = true;
      arrived();
      await released;
    },
  };
}

const key = (pk: string, sk = 'item') => ({ pk: { S: pk }, sk: { S: sk } });
const put = (pk: string, extra: Record<string, { S: string }> = {}): TransactWriteItem => ({ Put: { TableName: table, Item: { ...key(pk), ...extra } } });
const rejection = async (promise: Promise<unknown>): Promise<any> => promise.then(() => expect.fail('expected a refusal'), (error: unknown) => error);

beforeAll(async () => {
  const db = client(inject('dynamodbLocal').endpoint, 3);
  await db.send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  }));
  db.destroy();
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
});

describe('transaction conflicts, as DynamoDB documents them', () => {
  it('cancels a transaction that overlaps one in flight, with TransactionConflict at the overlapping index and None elsewhere', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const [a, b, c] = [unique('a'), unique('b'), unique('c')];

    const first = db.send(new TransactWriteItemsCommand({ TransactItems: [put(a), put(b)] }));
    await held.held;
    const error = await rejection(db.send(new TransactWriteItemsCommand({ TransactItems: [put(c), put(a)] })));
    held.release();
    await first;

    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect(error.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict]');
    expect(error.CancellationReasons).toEqual([{ Code: 'None' }, { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }]);
    expect(error.$metadata.httpStatusCode).toBe(400);
    // The first committed; nothing of the cancelled one was written.
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(a) }))).Item).toBeDefined();
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(c) }))).Item).toBeUndefined();
    expect(aws.stats()).toMatchObject({ cancelledTransactions: 1, conflictReasons: 1 });
  });

  it('lets two transactions on different items both commit while they overlap in time', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const [a, b, c, d] = [unique('a'), unique('b'), unique('c'), unique('d')];

    const first = db.send(new TransactWriteItemsCommand({ TransactItems: [put(a), put(b)] }));
    await held.held;
    await db.send(new TransactWriteItemsCommand({ TransactItems: [put(c), put(d)] }));
    held.release();
    await first;

    expect(aws.stats()).toMatchObject({ cancelledTransactions: 0, singleItemConflicts: 0 });
  });

  it('refuses a single-item write on an item a transaction holds with TransactionConflictException, and serves a GetItem of it', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const a = unique('a');
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(a), v: { S: 'before' } } }));

    const first = db.send(new TransactWriteItemsCommand({ TransactItems: [put(a, { v: { S: 'transaction' } })] }));
    await held.held;
    const error = await rejection(db.send(new PutItemCommand({ TableName: table, Item: { ...key(a), v: { S: 'single' } } })));
    const read = await db.send(new GetItemCommand({ TableName: table, Key: key(a) }));
    held.release();
    await first;

    expect(error).toBeInstanceOf(TransactionConflictException);
    expect(error.message).toBe('Transaction is ongoing for the item');
    expect(read.Item?.v).toBeDefined();
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(a), ConsistentRead: true }))).Item?.v).toEqual({ S: 'transaction' });
    expect(aws.stats().singleItemConflicts).toBe(1);
  });

  it('cancels a TransactGetItems of an item a transaction is writing', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const [a, b] = [unique('a'), unique('b')];

    const first = db.send(new TransactWriteItemsCommand({ TransactItems: [put(a)] }));
    await held.held;
    const error = await rejection(db.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: table, Key: key(b) } }, { Get: { TableName: table, Key: key(a) } }] })));
    held.release();
    await first;

    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect(error.CancellationReasons.map((r: { Code: string }) => r.Code)).toEqual(['None', 'TransactionConflict']);
  });

  it('cancels a TransactGetItems when a write to one of its items starts while it runs', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const a = unique('a');

    const read = rejection(db.send(new TransactGetItemsCommand({ TransactItems: [{ Get: { TableName: table, Key: key(a) } }] })));
    await held.held;
    await db.send(new PutItemCommand({ TableName: table, Item: key(a) }));
    held.release();

    expect((await read).CancellationReasons).toEqual([{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }]);
  });
});

describe('ClientRequestToken, as DynamoDB documents it', () => {
  const addOne = (pk: string): TransactWriteItem => ({
    Update: { TableName: table, Key: key(pk), UpdateExpression: 'ADD written :one', ExpressionAttributeValues: { ':one': { N: '1' } } },
  });

  it('answers TransactionInProgressException (400) to a resend of a transaction still in flight, and applies it once', async () => {
    const held = gate();
    const aws = await engine({ hold: held.hold });
    const db = client(aws.endpoint);
    const counter = unique('counter');
    const request = () => new TransactWriteItemsCommand({ ClientRequestToken: unique('token'), TransactItems: [addOne(counter)] });
    const sent = request();
    const resend = new TransactWriteItemsCommand({ ...sent.input });

    const first = db.send(sent);
    await held.held;
    const error = await rejection(db.send(resend));
    held.release();
    await first;

    expect(error.name).toBe('TransactionInProgressException');
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(counter), ConsistentRead: true }))).Item?.written).toEqual({ N: '1' });
    expect(aws.stats()).toMatchObject({ transactionsInProgress: 1, cancelledTransactions: 0 });
  });

  it('answers a resend of a transaction that succeeded with success, without applying it again, even while another holds its items', async () => {
    const held = gate();
    let armed = false;
    const aws = await engine({ hold: () => (armed ? held.hold() : Promise.resolve()) });
    const db = client(aws.endpoint);
    const counter = unique('counter');
    const token = unique('token');
    await db.send(new TransactWriteItemsCommand({ ClientRequestToken: token, TransactItems: [addOne(counter)] }));

    // Another transaction holds the counter: a new request is cancelled, the resend is not.
    armed = true;
    const other = db.send(new TransactWriteItemsCommand({ TransactItems: [put(unique('other')), addOne(counter)] }));
    await held.held;
    const resent = await db.send(new TransactWriteItemsCommand({ ClientRequestToken: token, TransactItems: [addOne(counter)] }));
    const fresh = await rejection(db.send(new TransactWriteItemsCommand({ ClientRequestToken: unique('token'), TransactItems: [addOne(counter)] })));
    held.release();
    await other;

    expect(resent.$metadata.httpStatusCode).toBe(200);
    expect(fresh).toBeInstanceOf(TransactionCanceledException);
    // The first and the other transaction: the resend added nothing.
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(counter), ConsistentRead: true }))).Item?.written).toEqual({ N: '2' });
    expect(aws.stats()).toMatchObject({ idempotentResends: 1, cancelledTransactions: 1 });
  });
});

describe('ClientRequestToken window', () => {
  it('forgets a token 10 minutes after its transaction succeeded, even while an older transaction is still in flight', async () => {
    const held = gate();
    let armed = false;
    let now = 1_000;
    const aws = await engine({ now: () => now, hold: () => (armed ? held.hold() : Promise.resolve()) });
    const db = client(aws.endpoint);
    const counter = unique('counter');
    const addOne: TransactWriteItem = {
      Update: { TableName: table, Key: key(counter), UpdateExpression: 'ADD written :one', ExpressionAttributeValues: { ':one': { N: '1' } } },
    };
    armed = true;
    const older = db.send(new TransactWriteItemsCommand({ ClientRequestToken: unique('token'), TransactItems: [put(unique('older'))] }));
    await held.held;
    armed = false;
    const token = unique('token');
    await db.send(new TransactWriteItemsCommand({ ClientRequestToken: token, TransactItems: [addOne] }));

    now += 10 * 60_000 + 1;
    await db.send(new TransactWriteItemsCommand({ ClientRequestToken: token, TransactItems: [addOne] }));
    held.release();
    await older;

    // Forgotten, the token's resend is a new transaction to the engine, not a resend it remembers
    // (DynamoDB Local behind it keeps its own token window in real time, so the item cannot tell).
    expect(aws.stats().idempotentResends).toBe(0);
  });
});

describe('per-partition throughput', () => {
  // Items of about 99 KB: 100 WCU to write, 25 RCU to read strongly consistent.
  const payload = { v: { S: 'x'.repeat(99 * 1024) } };

  it('throttles writes to one partition key beyond 1,000 WCU in a second, not below, and not other keys', async () => {
    let now = 5_000;
    const aws = await engine({ now: () => now });
    const db = client(aws.endpoint);
    const hot = unique('hot');
    const units = writeUnits(itemSize({ ...key(hot, 's-0'), ...payload }));
    const fit = Math.floor(1000 / units);
    expect(units).toBe(100);

    for (let i = 0; i < fit; i += 1) await db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot, `s-${i}`), ...payload } }));
    const error = await rejection(db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot, 's-over'), ...payload } })));
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(unique('cold')), ...payload } }));
    // A transaction on the hot key is cancelled with ThrottlingError at its index.
    const cancelled = await rejection(db.send(new TransactWriteItemsCommand({ TransactItems: [put(unique('cold')), put(hot, payload)] })));

    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error.message).toMatch(/^Throughput exceeds the current capacity of your table or index/);
    expect(error.throttlingReasons).toEqual([{ reason: 'TableWriteKeyRangeThroughputExceeded', resource: expect.stringContaining(table) }]);
    expect(cancelled.CancellationReasons.map((r: { Code: string }) => r.Code)).toEqual(['None', 'ThrottlingError']);
    // The next second the partition has its full throughput again.
    now += 1_000;
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot, 's-over'), ...payload } }));
  });

  it('throttles reads of one partition key beyond 3,000 RCU in a second', async () => {
    let now = 7_000;
    const aws = await engine({ now: () => now });
    const db = client(aws.endpoint);
    const hot = unique('hot');
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot), ...payload } }));
    const units = readUnits(itemSize({ ...key(hot), ...payload }), { consistent: true });
    expect(units).toBe(25);

    for (let i = 0; i < 3000 / units; i += 1) await db.send(new GetItemCommand({ TableName: table, Key: key(hot), ConsistentRead: true }));
    const error = await rejection(db.send(new GetItemCommand({ TableName: table, Key: key(hot), ConsistentRead: true })));

    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error.throttlingReasons[0].reason).toBe('TableReadKeyRangeThroughputExceeded');
    now += 1_000;
    await db.send(new GetItemCommand({ TableName: table, Key: key(hot), ConsistentRead: true }));
  });

  it('meters BatchGetItem per item, rounded up to 4 KB each (half when eventually consistent), and throttles it when its partitions are spent', async () => {
    let now = 9_000;
    const aws = await engine({ now: () => now });
    const db = client(aws.endpoint);
    const hot = unique('batch');
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot, 'a'), ...payload } }));
    await db.send(new PutItemCommand({ TableName: table, Item: { ...key(hot, 'b'), small: { S: 'x' } } }));
    const keys = [key(hot, 'a'), key(hot, 'b'), key(hot, 'missing')];
    const before = aws.stats().readUnits;
    await db.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }));
    expect(aws.stats().readUnits - before).toBe(25 + 1);
    await db.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys } } }));
    expect(aws.stats().readUnits - before).toBe(26 + 13);

    while (aws.stats().readUnits - before < 3_000) await db.send(new GetItemCommand({ TableName: table, Key: key(hot, 'a'), ConsistentRead: true }));
    const error = await rejection(db.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } })));
    expect(error).toBeInstanceOf(ThrottlingException);
    now += 1_000;
    await db.send(new BatchGetItemCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }));
  });

  it('is a throttle the SDK retries by itself', async () => {
    const aws = await engine({ now: () => 0, limits: { read: 3000, write: 0 } });
    const error = await rejection(client(aws.endpoint, 3).send(new PutItemCommand({ TableName: table, Item: key(unique('a')) })));

    expect(error).toBeInstanceOf(ThrottlingException);
    expect(error.$metadata.attempts).toBe(3);
  });
});

describe('injected faults', () => {
  it('answers InternalServerError at rate 1, which the SDK retries, and writes nothing', async () => {
    const aws = await engine({ faultRate: 1 });
    const a = unique('a');
    const error = await rejection(client(aws.endpoint, 2).send(new PutItemCommand({ TableName: table, Item: key(a) })));

    expect(error).toBeInstanceOf(InternalServerError);
    expect(error.$metadata).toMatchObject({ httpStatusCode: 500, attempts: 2 });
    expect((await client(inject('dynamodbLocal').endpoint).send(new GetItemCommand({ TableName: table, Key: key(a) }))).Item).toBeUndefined();
  });

  it('injects nothing at rate 0, and the same faults for the same seed', async () => {
    const calm = await engine({ faultRate: 0, latencyRate: 0 });
    for (let i = 0; i < 10; i += 1) await client(calm.endpoint).send(new GetItemCommand({ TableName: table, Key: key('none') }));
    expect(calm.stats()).toMatchObject({ requests: 10, faults: 0, delayed: 0 });

    const outcomes = async (seed: number) => {
      const flaky = await engine({ faultRate: 0.5, seed });
      const db = client(flaky.endpoint);
      const seen: string[] = [];
      for (let i = 0; i < 20; i += 1) {
        seen.push(await db.send(new GetItemCommand({ TableName: table, Key: key('none') })).then(() => 'ok', (e: Error) => e.name));
      }
      return seen;
    };
    const first = await outcomes(42);
    expect(first).toContain('InternalServerError');
    expect(first).toContain('ok');
    expect(await outcomes(42)).toEqual(first);
  });

  it('answers InternalServerError to exactly the requests faultWhen picks, and forwards the others', async () => {
    const [a, b] = [unique('a'), unique('b')];
    const aws = await engine({ faultWhen: (operation, body) => operation === 'PutItem' && body.Item?.pk?.S === b });
    const db = client(aws.endpoint, 2);
    await db.send(new PutItemCommand({ TableName: table, Item: key(a) }));
    const error = await rejection(db.send(new PutItemCommand({ TableName: table, Item: key(b) })));

    expect(error).toBeInstanceOf(InternalServerError);
    expect(aws.stats()).toMatchObject({ requests: 3, faults: 2 });
    expect((await db.send(new GetItemCommand({ TableName: table, Key: key(b) }))).Item).toBeUndefined();
  });

  it('delays requests at the latency rate', async () => {
    const aws = await engine({ latencyRate: 1, latencyMs: 1 });
    await client(aws.endpoint).send(new GetItemCommand({ TableName: table, Key: key('none') }));
    expect(aws.stats().delayed).toBe(1);
  });
});

describe("a transaction's limits, answered as DynamoDB answers them", () => {
  it('refuses more than 100 actions and more than 4 MB with ValidationException', async () => {
    const db = client((await engine()).endpoint);
    const many = await rejection(db.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 101 }, (_, i) => put(unique(`n${i}`))) })));
    const big = 'x'.repeat(390 * 1024);
    const large = await rejection(db.send(new TransactWriteItemsCommand({ TransactItems: Array.from({ length: 11 }, (_, i) => put(unique(`l${i}`), { v: { S: big } })) })));

    expect(many.name).toBe('ValidationException');
    expect(many.message).toMatch(/Member must have length less than or equal to 100/);
    expect(large.name).toBe('ValidationException');
    expect(large.message).toMatch(/^Transaction payload size cannot exceed 4MB/);
  });
});

describe('the switch', () => {
  const target = 'http://127.0.0.1:1';

  it('is on by default for the tests and the bench, off for npm start; AWS_LIKE_DYNAMODB=0 or 1 decides over any default', () => {
    expect(AWS_LIKE_BY_DEFAULT).toEqual({ tests: true, bench: true, start: false });
    expect(awsLikeOptionsFromEnv({}, target, { defaultOn: AWS_LIKE_BY_DEFAULT.tests })).toEqual({ target });
    expect(awsLikeOptionsFromEnv({ AWS_LIKE_DYNAMODB: '' }, target, { defaultOn: AWS_LIKE_BY_DEFAULT.bench })).toEqual({ target });
    expect(awsLikeOptionsFromEnv({}, target, { defaultOn: AWS_LIKE_BY_DEFAULT.start })).toBeUndefined();
    for (const off of ['0', 'false']) expect(awsLikeOptionsFromEnv({ AWS_LIKE_DYNAMODB: off }, target, { defaultOn: true })).toBeUndefined();
    for (const on of ['1', 'true']) expect(awsLikeOptionsFromEnv({ AWS_LIKE_DYNAMODB: on }, target, { defaultOn: false })).toEqual({ target });
    expect(() => awsLikeEnabled({ AWS_LIKE_DYNAMODB: 'yes' }, false)).toThrow(/AWS_LIKE_DYNAMODB must be 1 or 0/);
  });

  it('puts this run behind the engine unless AWS_LIKE_DYNAMODB=0', () => {
    const fronted = inject('dynamodb').endpoint !== inject('dynamodbLocal').endpoint;
    expect(fronted).toBe(awsLikeEnabled(process.env, AWS_LIKE_BY_DEFAULT.tests));
    if (process.env.AWS_LIKE_DYNAMODB === undefined) expect(fronted).toBe(true);
  });

  it('reads its knobs from the environment', () => {
    expect(awsLikeOptionsFromEnv({
      AWS_LIKE_DYNAMODB: '1', AWS_LIKE_DYNAMODB_HOLD_MS: '3', AWS_LIKE_DYNAMODB_FAULT_RATE: '0.01',
      AWS_LIKE_DYNAMODB_LATENCY_RATE: '0.1', AWS_LIKE_DYNAMODB_LATENCY_MS: '20', AWS_LIKE_DYNAMODB_SEED: '7',
    }, target, { defaultOn: false })).toEqual({ target, transactionHoldMs: 3, faultRate: 0.01, latencyRate: 0.1, latencyMs: 20, seed: 7 });
    expect(() => awsLikeOptionsFromEnv({ AWS_LIKE_DYNAMODB_FAULT_RATE: 'often' }, 'x', { defaultOn: true })).toThrow(/AWS_LIKE_DYNAMODB_FAULT_RATE/);
  });

  it('puts the engine in front of a local engine for npm start only when asked, for the bench unless told not to, and stops both', async () => {
    let stopped = 0;
    const local = { endpoint: inject('dynamodbLocal').endpoint, region: 'local', accessKeyId: 'local', stop: async () => void (stopped += 1) };

    expect(await awsLikeInFront({}, local, { defaultOn: AWS_LIKE_BY_DEFAULT.start })).toBe(local);
    expect(await awsLikeInFront({ AWS_LIKE_DYNAMODB: '0' }, local, { defaultOn: AWS_LIKE_BY_DEFAULT.bench })).toBe(local);
    const fronted = await awsLikeInFront({ AWS_LIKE_DYNAMODB_FAULT_RATE: '1' }, local, { defaultOn: AWS_LIKE_BY_DEFAULT.bench });
    const error = await rejection(client(fronted.endpoint).send(new GetItemCommand({ TableName: table, Key: key('none') })));
    await fronted.stop();

    expect(fronted.endpoint).not.toBe(local.endpoint);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(stopped).toBe(1);
  });
});
