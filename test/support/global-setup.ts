import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../lib/config.js';
import { createServices } from '../../lib/composition/services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodb: { endpoint: string; tableName: string };
  }
}

/**
 * Starts one in-memory DynamoDB Local for the run, with one seeded table from the shared
 * definition. Tests reach it with the well-known key (no DYNAMODB_ACCESS_KEY_ID): it holds
 * only their own throwaway data, and every test helper and fixture can then connect to it.
 */
export default async function setup(project: TestProject) {
  const engine = await startDynamoDbLocal();
  try {
    const tableName = `test-${randomUUID().slice(0, 8)}`;
    await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, tableName);
    // Every test sees what a fresh install has: project `default`, its environments, context fields.
    const config = loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, AWS_REGION: 'local' });
    await createServices(config).firstStart.ensure();
    project.provide('dynamodb', { endpoint: engine.endpoint, tableName });
  } catch (error) {
    // A setup that fails gets no teardown: the engine would outlive the run.
    await engine.stop();
    throw error;
  }
  return async () => {
    await engine.stop();
  };
}
