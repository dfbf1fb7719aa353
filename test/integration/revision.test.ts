import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';
import { testConfig, unique } from '../support/services.js';

const config = testConfig();
const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
const revisions = new DynamoRevisionStore(db, config.tableName);

describe('the revision item', () => {
  it('moves on by one with each committed change, and tells the listeners', async () => {
    const before = await revisions.current();
    let told = 0;
    revisions.onCommittedBump(() => (told += 1));

    const outcome = await revisions.commit([{ Put: { TableName: config.tableName, Item: { pk: unique('TEST'), sk: 'A' } } }]);

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
    ]);

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
