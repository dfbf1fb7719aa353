import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { localCredentials, type DynamoConnection } from './document-client.js';
import { tableDefinition } from './table-design.js';

/**
 * Makes sure the table exists on a local engine, retrying while the engine finishes starting.
 */
export async function prepareLocalTable(connection: DynamoConnection, tableName: string): Promise<void> {
  const client = new DynamoDBClient({
    region: connection.region,
    endpoint: connection.endpoint,
    credentials: localCredentials(connection),
  });
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await ensureTable(client, tableName);
        return;
      } catch (error) {
        if (attempt >= 50 || error instanceof ResourceNotFoundException) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    client.destroy();
  }
}

/**
 * Creates the table from the shared definition when it does not exist yet (local engine and
 * tests; in the cloud CDK creates it from the same definition).
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttributes = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const index of tableDefinition.indexes) {
    keyAttributes.add(index.partitionKey);
    keyAttributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      KeySchema: [
        { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
        { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
      ],
      ...(tableDefinition.indexes.length > 0
        ? {
            GlobalSecondaryIndexes: tableDefinition.indexes.map((index) => ({
              IndexName: index.name,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
                { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
              ],
              Projection: { ProjectionType: 'ALL' as const },
            })),
          }
        : {}),
    }),
  );
}
