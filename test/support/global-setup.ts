import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodb: { endpoint: string; tableName: string };
  }
}

/** Starts one in-memory DynamoDB Local for the run, with one table from the shared definition. */
export default async function setup(project: TestProject) {
  const engine = await startDynamoDbLocal();
  const tableName = `test-${randomUUID().slice(0, 8)}`;
  await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, tableName);
  project.provide('dynamodb', { endpoint: engine.endpoint, tableName });
  return async () => {
    await engine.stop();
  };
}
