/**
 * The bench's own DynamoDB: DynamoDB Local in memory, behind the AWS-like engine unless
 * AWS_LIKE_DYNAMODB=0. The bench starts them itself (the local runtime gets them as
 * DYNAMODB_ENDPOINT) so that it can count the engine's read and write units and seed straight
 * into DynamoDB Local, past the engine's per-partition throttling.
 */
import { startDynamoDbLocal } from '../dynamodb-local.js';
import { awsLikeOptionsFromEnv, startAwsLikeDynamoDb, type AwsLikeEngine } from '../aws-like-dynamodb/engine.js';
import type { DynamoConnection } from '../../lib/store/document-client.js';

export interface BenchDynamo {
  /** What the local runtime's services use: the AWS-like engine when it is on. */
  service: DynamoConnection;
  /** DynamoDB Local itself, for seeding. */
  direct: DynamoConnection;
  /** Capacity units the AWS-like engine metered so far; undefined with AWS_LIKE_DYNAMODB=0. */
  units(): { read: number; write: number } | undefined;
  describe: string;
  stop(): Promise<void>;
}

export async function startBenchDynamo(env: Record<string, string | undefined>, defaultOn: boolean): Promise<BenchDynamo> {
  const local = await startDynamoDbLocal({});
  const direct = { region: local.region, endpoint: local.endpoint, accessKeyId: local.accessKeyId };
  let front: AwsLikeEngine | undefined;
  try {
    const options = awsLikeOptionsFromEnv(env, local.endpoint, { defaultOn });
    front = options ? await startAwsLikeDynamoDb(options) : undefined;
  } catch (error) {
    await local.stop();
    throw error;
  }
  return {
    direct,
    service: front ? { ...direct, endpoint: front.endpoint } : direct,
    units: () => {
      if (!front) return undefined;
      const stats = front.stats();
      return { read: stats.readUnits, write: stats.writeUnits };
    },
    describe: front ? 'in-memory DynamoDB Local behind the AWS-like engine' : 'in-memory DynamoDB Local, AWS_LIKE_DYNAMODB=0',
    stop: async () => {
      await front?.stop();
      await local.stop();
    },
  };
}
