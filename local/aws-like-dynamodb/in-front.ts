import type { LocalEngine } from '../dynamodb-local.js';
import { awsLikeOptionsFromEnv, startAwsLikeDynamoDb } from './engine.js';

/**
 * When the switch is on (AWS_LIKE_DYNAMODB, else the caller's `defaultOn`: AWS_LIKE_BY_DEFAULT),
 * the same engine reached through the AWS-like one (its endpoint instead of DynamoDB Local's;
 * stopping stops both); otherwise the engine as it is.
 */
export async function awsLikeInFront(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>, engine: LocalEngine, switchDefault: { defaultOn: boolean },
): Promise<LocalEngine> {
  let options;
  try {
    options = awsLikeOptionsFromEnv(env, engine.endpoint, switchDefault);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  if (!options) return engine;
  const front = await startAwsLikeDynamoDb(options).catch(async (error: unknown) => {
    await engine.stop();
    throw error;
  });
  return {
    ...engine,
    endpoint: front.endpoint,
    stop: async () => {
      await front.stop();
      await engine.stop();
    },
  };
}
