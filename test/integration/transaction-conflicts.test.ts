import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ServiceUnavailable } from '../../lib/errors.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { gatedEngine } from '../support/gated-engine.js';
import { unique } from '../support/services.js';

// Our store code against the AWS-like engine, which cancels overlapping transactions as DynamoDB
// does. A transaction is held in flight by a gate the test opens, so nothing depends on timing.
const table = unique('conflicts');
let gated: Awaited<ReturnType<typeof gatedEngine>>;

beforeAll(async () => {
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodbLocal').endpoint }, table);
  gated = await gatedEngine();
});

afterAll(async () => {
  await gated?.stop();
});

const db = () => createDocumentClient({ region: 'local', endpoint: gated.engine.endpoint });
const item = (pk: string, value: string) => ({ Put: { TableName: table, Item: { pk, sk: 'item', value } } });

describe('a write that keeps meeting a concurrent transaction', () => {
  it('answers 503 ServiceUnavailable once its retries are spent, and nothing of it is written', async () => {
    const client = db();
    const pk = unique('contended');
    const gate = gated.holdNext();
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
    const gate = gated.holdNext();
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
