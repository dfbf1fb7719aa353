import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../lib/config.js';
import { createServices } from '../../lib/composition/services.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { awsLikeOptionsFromEnv, startAwsLikeDynamoDb, type AwsLikeEngine } from '../../scripts/local/aws-like-dynamodb/engine.js';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodb: { endpoint: string; tableName: string };
    /** DynamoDB Local itself, never behind the AWS-like engine: for tests that start their own engine in front of it. */
    dynamodbLocal: { endpoint: string };
  }
}

/**
 * Starts one in-memory DynamoDB Local for the run, with one seeded table from the shared
 * definition. Tests reach it with the well-known key (no DYNAMODB_ACCESS_KEY_ID): it holds
 * only their own throwaway data, and every test helper and fixture can then connect to it.
 */
export default async function setup(project: TestProject) {
  const engine = await startDynamoDbLocal();
  // AWS_LIKE_DYNAMODB=1: every test reaches DynamoDB Local through the engine that answers as
  // DynamoDB does under concurrency, load and faults (scripts/local/aws-like-dynamodb).
  let awsLike: AwsLikeEngine | undefined;
  try {
    const options = awsLikeOptionsFromEnv(process.env, engine.endpoint);
    awsLike = options ? await startAwsLikeDynamoDb(options) : undefined;
    const endpoint = awsLike?.endpoint ?? engine.endpoint;
    const tableName = `test-${randomUUID().slice(0, 8)}`;
    await prepareLocalTable({ region: 'local', endpoint }, tableName);
    // Every test sees what a fresh install has: project `default`, its environments, context fields.
    const config = loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
    await createServices(config).firstStart.ensure();
    project.provide('dynamodb', { endpoint, tableName });
    project.provide('dynamodbLocal', { endpoint: engine.endpoint });
  } catch (error) {
    // A setup that fails gets no teardown: the engines would outlive the run.
    await awsLike?.stop();
    await engine.stop();
    throw error;
  }
  return async () => {
    if (awsLike) console.log(`AWS-like DynamoDB: ${JSON.stringify(awsLike.stats())}`);
    await awsLike?.stop();
    await engine.stop();
  };
}
