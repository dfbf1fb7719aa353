import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ServiceUnavailable } from '../../lib/errors.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../scripts/local/aws-like-dynamodb/engine.js';
import { unique } from '../support/services.js';

// Our store code against the AWS-like engine, which cancels overlapping transactions as DynamoDB
// does. A transaction is held in flight by a gate the test opens, so nothing depends on timing.
const table = unique('conflicts');
let engine: AwsLikeEngine;
let releaseHeld: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();
let arrived: () => void = () => undefined;
let holding = false;

beforeAll(async () => {
  const raw = new DynamoDBClient({ region: 'local', endpoint: inject('dynamodbLocal').endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await raw.send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  }));
  raw.destroy();
  engine = await startAwsLikeDynamoDb({
    target: inject('dynamodbLocal').endpoint,
    transactionHoldMs: 0,
    // Only the first transaction after `holdNext()` waits for the gate; the others pass at once.
    hold: async () => {
      if (!holding) return;
      holding = false;
      arrived();
      await held;
    },
  });
});

afterAll(async () => {
  releaseHeld();
  await engine?.stop();
});

/** Holds the next transaction in flight: `holding` resolves once the engine holds its items. */
function holdNext(): { holding: Promise<void>; release: () => void } {
  holding = true;
  held = new Promise<void>((resolve) => (releaseHeld = resolve));
  const isHeld = new Promise<void>((resolve) => (arrived = resolve));
  return { holding: isHeld, release: releaseHeld };
}

const db = () => createDocumentClient({ region: 'local', endpoint: engine.endpoint });
const item = (pk: string, value: string) => ({ Put: { TableName: table, Item: { pk, sk: 'item', value } } });

describe('a write that keeps meeting a concurrent transaction', () => {
  it('answers 503 ServiceUnavailable once its retries are spent, and nothing of it is written', async () => {
    const client = db();
    const pk = unique('contended');
    const gate = holdNext();
    const first = transactWriteDetailed(client, [item(pk, 'first')]);
    await gate.holding;

    const refused = await transactWriteDetailed(client, [item(pk, 'second'), item(unique('other'), 'second')]).then(
      () => undefined,
      (error: unknown) => error,
    );
    gate.release();
    await first;

    expect(refused).toBeInstanceOf(ServiceUnavailable);
    expect((refused as Error).message).toMatch(/nothing was changed/);
    expect((await client.send(new GetCommand({ TableName: table, Key: { pk, sk: 'item' } }))).Item?.value).toBe('first');
  });

  it('answers a single-item write on an item a transaction holds as 503, not 500', async () => {
    const client = db();
    const pk = unique('held');
    const gate = holdNext();
    const first = transactWriteDetailed(client, [item(pk, 'in-transaction')]);
    await gate.holding;

    const refused = await client.send(new PutCommand({ TableName: table, Item: { pk, sk: 'item', value: 'single' } })).then(
      () => undefined,
      (error: unknown) => error,
    );
    gate.release();
    await first;

    expect(refused).toBeInstanceOf(ServiceUnavailable);
    expect((await client.send(new GetCommand({ TableName: table, Key: { pk, sk: 'item' } }))).Item?.value).toBe('in-transaction');
  });
});
