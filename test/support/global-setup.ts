import { randomUUID } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../../lib/config.js';
import { createServices } from '../../local/app-services.js';
import { createComposition } from '../../lib/composition/composition.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { AWS_LIKE_BY_DEFAULT, awsLikeOptionsFromEnv, startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { startDynamoDbLocal } from '../../local/dynamodb-local.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodb: { endpoint: string; tableName: string };
    /** DynamoDB Local itself, never behind the AWS-like engine: for tests that start their own engine in front of it. */
    dynamodbLocal: { endpoint: string };
  }
}

/** What every project whose tests need DynamoDB is given: the run's engines and seeded table. */
interface RunEngines {
  provided: { dynamodb: { endpoint: string; tableName: string }; dynamodbLocal: { endpoint: string } };
  /** Projects set up on these engines and not yet torn down. */
  users: number;
  stop(): Promise<void>;
}

// Each vitest project loads this file anew, but all of them run in this one process: the
// engines hang on the process, so projects that run together (npm test) share one engine.
const RUN_ENGINES = Symbol.for('serverless-toggles.test-engines');
const holder = globalThis as { [RUN_ENGINES]?: Promise<RunEngines> };

/**
 * Starts one in-memory DynamoDB Local for the run, with one seeded table from the shared
 * definition, and stops it when the last project that asked for it is torn down. Tests reach
 * it with the well-known key (no DYNAMODB_ACCESS_KEY_ID): it holds only their own throwaway
 * data, and every test helper and fixture can then connect to it.
 */
export default async function setup(project: TestProject) {
  const starting = (holder[RUN_ENGINES] ??= startEngines());
  let engines: RunEngines;
  try {
    engines = await starting;
  } catch (error) {
    if (holder[RUN_ENGINES] === starting) delete holder[RUN_ENGINES];
    throw error;
  }
  engines.users += 1;
  project.provide('dynamodb', engines.provided.dynamodb);
  project.provide('dynamodbLocal', engines.provided.dynamodbLocal);
  return async () => {
    engines.users -= 1;
    if (engines.users > 0) return;
    if (holder[RUN_ENGINES] === starting) delete holder[RUN_ENGINES];
    await engines.stop();
  };
}

async function startEngines(): Promise<RunEngines> {
  const engine = await startDynamoDbLocal();
  // Unless AWS_LIKE_DYNAMODB=0, every test reaches DynamoDB Local through the engine that answers
  // as DynamoDB does under concurrency and load (local/aws-like-dynamodb): conflicts and
  // throttling always, faults only when AWS_LIKE_DYNAMODB_FAULT_RATE asks (the fuzz and
  // concurrency suites start their own engine with faults).
  let awsLike: AwsLikeEngine | undefined;
  try {
    const options = awsLikeOptionsFromEnv(process.env, engine.endpoint, { defaultOn: AWS_LIKE_BY_DEFAULT.tests });
    awsLike = options ? await startAwsLikeDynamoDb(options) : undefined;
    const endpoint = awsLike?.endpoint ?? engine.endpoint;
    const tableName = `test-${randomUUID().slice(0, 8)}`;
    await prepareLocalTable({ region: 'local', endpoint }, tableName);
    // Every test sees what a fresh install has: project `default`, its environments, context fields.
    const config = loadConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local' });
    await createServices(createComposition(config)).firstStart.ensure();
    return {
      provided: { dynamodb: { endpoint, tableName }, dynamodbLocal: { endpoint: engine.endpoint } },
      users: 0,
      stop: async () => {
        if (awsLike) console.log(`AWS-like DynamoDB: ${JSON.stringify(awsLike.stats())}`);
        await awsLike?.stop();
        await engine.stop();
      },
    };
  } catch (error) {
    // A setup that fails gets no teardown: the engines would outlive the run.
    await awsLike?.stop();
    await engine.stop();
    throw error;
  }
}
