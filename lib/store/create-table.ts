import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceNotFoundException,
  UpdateTableCommand,
} from '@aws-sdk/client-dynamodb';
import { localCredentials, type DynamoConnection } from './document-client.js';
import { tableDefinition, type IndexDefinition } from './table-design.js';

/**
 * Makes sure the table exists on a local engine, retrying while the engine finishes starting.
 * Answers whether it created the table.
 */
export async function prepareLocalTable(connection: DynamoConnection, tableName: string): Promise<boolean> {
  const client = new DynamoDBClient({
    region: connection.region,
    endpoint: connection.endpoint,
    credentials: localCredentials(connection),
  });
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await ensureTable(client, tableName);
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
 * tests; in the cloud CDK creates it from the same definition). Answers whether it created it.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<boolean> {
  let existing: string[] | undefined;
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    existing = (Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName as string);
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keyAttributes = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const index of tableDefinition.indexes) {
    keyAttributes.add(index.partitionKey);
    keyAttributes.add(index.sortKey);
  }
  if (existing) {
    await addMissingIndexes(client, tableName, existing, keyAttributes);
    return false;
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
              ...indexSchema(index),
            })),
          }
        : {}),
    }),
  );
  return true;
}

function indexSchema(index: IndexDefinition) {
  return {
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}

/**
 * A table made by an older version (`.data/` of an earlier `npm start`) gets the indexes added
 * since, one at a time as DynamoDB allows; in the cloud CloudFormation adds them the same way.
 */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: string[], keyAttributes: Set<string>): Promise<void> {
  for (const index of tableDefinition.indexes.filter((wanted) => !existing.includes(wanted.name))) {
    await client.send(new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [...keyAttributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.name, ...indexSchema(index) } }],
    }));
    // The table stays ACTIVE while the index fills; Queries on it wait for the index's own status.
    for (let attempt = 1; ; attempt += 1) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      const status = Table?.GlobalSecondaryIndexes?.find((made) => made.IndexName === index.name)?.IndexStatus;
      if (status === 'ACTIVE') break;
      if (attempt >= 600) throw new Error(`Index ${index.name} of ${tableName} is still ${status} after a minute`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
