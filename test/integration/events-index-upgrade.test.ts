import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it, inject } from 'vitest';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { localCredentials } from '../../lib/store/document-client.js';
import { INDEXES, KEY } from '../../lib/store/table-design.js';
import { unique } from '../support/services.js';

const connection = { region: 'local', endpoint: inject('dynamodb').endpoint };
const client = new DynamoDBClient({ ...connection, credentials: localCredentials(connection) });

afterAll(() => client.destroy());

describe("a table from before the event log's index (an earlier npm start's .data/)", () => {
  it('gets the eventsByFeature index at start, active before the start goes on', async () => {
    const tableName = unique('old-table');
    await client.send(new CreateTableCommand({
      TableName: tableName, BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: KEY.partition, AttributeType: 'S' }, { AttributeName: KEY.sort, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: KEY.partition, KeyType: 'HASH' }, { AttributeName: KEY.sort, KeyType: 'RANGE' }],
    }));

    await prepareLocalTable(connection, tableName);
    await prepareLocalTable(connection, tableName);

    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    expect(Table?.GlobalSecondaryIndexes?.map(({ IndexName, IndexStatus }) => [IndexName, IndexStatus])).toEqual([[INDEXES.eventsByFeature.name, 'ACTIVE']]);
  });
});
