import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { DynamoRevisionStore, REVISION_SHARDS } from '../../lib/store/revision-store.js';
import { gatedEngine } from '../support/gated-engine.js';
import { testConfig, unique } from '../support/services.js';

const config = testConfig();
const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
const revisions = new DynamoRevisionStore(db, config.tableName);
const NO_FEATURES = { features: [] };

describe('the revision item', () => {
  it('moves on by one with each committed change, and tells the listeners', async () => {
    const before = await revisions.current();
    let told = 0;
    revisions.onCommittedBump(() => (told += 1));

    const outcome = await revisions.commit([{ Put: { TableName: config.tableName, Item: { pk: unique('TEST'), sk: 'A' } } }], NO_FEATURES);

    expect(outcome.ok).toBe(true);
    expect(await revisions.current()).toBeGreaterThanOrEqual(before + 1);
    expect(told).toBe(1);
  });

  it('writes nothing at all, and tells no listener, when a condition in the change fails', async () => {
    const taken = unique('TAKEN');
    await db.send(new PutCommand({ TableName: config.tableName, Item: { pk: taken, sk: 'A' } }));
    const other = unique('OTHER');
    let told = 0;
    revisions.onCommittedBump(() => (told += 1));

    const outcome = await revisions.commit([
      { Put: { TableName: config.tableName, Item: { pk: other, sk: 'A' } } },
      { Put: { TableName: config.tableName, Item: { pk: taken, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ], NO_FEATURES);

    expect(outcome).toEqual({ ok: false, failedIndex: 1 });
    const written = await db.send(new GetCommand({ TableName: config.tableName, Key: { pk: other, sk: 'A' } }));
    expect(written.Item).toBeUndefined();
    expect(told).toBe(0);
  });

  it('moves the token-change counter with a token change', async () => {
    const before = await revisions.read();

    await revisions.commitTokenChange([{ Put: { TableName: config.tableName, Item: { pk: unique('TOKEN'), sk: 'A' } } }]);

    const after = await revisions.read();
    expect(after.tokenChanges).toBeGreaterThanOrEqual(before.tokenChanges + 1);
  });
});

describe('the revision spread over shards (ADR 13)', () => {
  const freshTable = async () => {
    const tableName = unique('revision');
    await prepareLocalTable({ region: config.region, endpoint: config.dynamodbEndpoint }, tableName);
    return tableName;
  };
  const engines: Array<{ stop: () => Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
  });

  it('is the sum of the shards each commit moves, over more than one item', async () => {
    const tableName = await freshTable();
    const store = new DynamoRevisionStore(db, tableName);

    for (let i = 0; i < 64; i += 1) await store.commit([], NO_FEATURES);

    expect(await store.read()).toMatchObject({ revision: 64, tokenChanges: 0 });
    const { Items = [] } = await db.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'REVISION' } }),
    );
    expect(Items.length).toBeGreaterThan(1);
    expect(Items.length).toBeLessThanOrEqual(REVISION_SHARDS);
  });

  it('counts the single revision item of earlier versions, so an upgrade never moves the revision back', async () => {
    const tableName = await freshTable();
    await db.send(new PutCommand({ TableName: tableName, Item: { pk: 'REVISION', sk: 'REVISION', revision: 500, tokenChanges: 7 } }));
    const store = new DynamoRevisionStore(db, tableName);

    await store.commit([], NO_FEATURES);
    await store.commitTokenChange([]);

    expect(await store.read()).toMatchObject({ revision: 501, tokenChanges: 8 });
  });

  it('lets two admin writes on different items commit at the same moment, as DynamoDB would (no conflict on one counter)', async () => {
    const tableName = await freshTable();
    const gated = await gatedEngine();
    engines.push(gated);
    const viaEngine = createDocumentClient({ region: 'local', endpoint: gated.engine.endpoint });
    const shards = [3, 5];
    const store = new DynamoRevisionStore(viaEngine, tableName, () => shards.shift() ?? 0);
    const put = (pk: string) => ({ Put: { TableName: tableName, Item: { pk, sk: 'A' } } });

    const gate = gated.holdNext();
    const held = store.commit([put(unique('A'))], NO_FEATURES);
    await gate.holding;
    const second = await store.commit([put(unique('B'))], NO_FEATURES);
    gate.release();

    expect(second.ok).toBe(true);
    expect((await held).ok).toBe(true);
    expect(gated.engine.stats().cancelledTransactions).toBe(0);
    expect(await store.read()).toMatchObject({ revision: 2, tokenChanges: 0 });
  });
});
