import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { DynamoRevisionStore } from '../../lib/store/revision-store.js';
import { transactWrite } from '../../lib/store/transact.js';
import { testConfig, unique } from '../support/services.js';

const config = testConfig();
const db = createDocumentClient({ region: config.region, endpoint: config.dynamodbEndpoint });
const revisions = new DynamoRevisionStore(db, config.tableName);

describe('the revision item', () => {
  it('moves on by one with each transaction that bumps it', async () => {
    const before = await revisions.current();

    const applied = await transactWrite(db, [
      { Put: { TableName: config.tableName, Item: { pk: unique('TEST'), sk: 'A' } } },
      revisions.bump(),
    ]);

    expect(applied).toBe(true);
    expect(await revisions.current()).toBeGreaterThanOrEqual(before + 1);
  });

  it('writes nothing at all when a condition in the transaction fails', async () => {
    const taken = unique('TAKEN');
    await db.send(new PutCommand({ TableName: config.tableName, Item: { pk: taken, sk: 'A' } }));
    const other = unique('OTHER');

    const applied = await transactWrite(db, [
      { Put: { TableName: config.tableName, Item: { pk: other, sk: 'A' } } },
      { Put: { TableName: config.tableName, Item: { pk: taken, sk: 'A' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      revisions.bump(),
    ]);

    expect(applied).toBe(false);
    const written = await db.send(new GetCommand({ TableName: config.tableName, Key: { pk: other, sk: 'A' } }));
    expect(written.Item).toBeUndefined();
  });
});
