import type { SecretsManagerClient, SecretsManagerClientConfig } from '@aws-sdk/client-secrets-manager';

/**
 * Reads a Secrets Manager secret with the AWS SDK (`GetSecretValue`), signed with the function's
 * role. The SDK finds the Region's endpoint in every partition (`amazonaws.com.cn` in China), so
 * the stack needs no per-Region layer: the Parameters and Secrets extension this replaced came
 * from a region map that deployed in 21 Regions only (issue 13, finding 2; ADR 2).
 *
 * Each caller reads once per cold start (the bootstrap once per CloudFormation event, the
 * access function once per key purpose, cached by SecretBox), so no cache is kept here. The
 * client module is loaded on the first read: a cold start that reads no secret does not pay
 * for it.
 */

export interface SecretSourceOptions {
  /** Another endpoint than the Region's own: the tests' local stand-in for Secrets Manager. */
  endpoint?: string;
  region?: string;
  credentials?: SecretsManagerClientConfig['credentials'];
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5_000;

let defaultClient: Promise<SecretsManagerClient> | undefined;

async function createClient(options: SecretSourceOptions): Promise<SecretsManagerClient> {
  const { SecretsManagerClient } = await import('@aws-sdk/client-secrets-manager');
  return new SecretsManagerClient({
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.region ? { region: options.region } : {}),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    maxAttempts: 3,
  });
}

/** The Lambda runtime's client (Region and credentials from the environment), made once per cold start. */
function runtimeClient(): Promise<SecretsManagerClient> {
  defaultClient ??= createClient({}).catch((error: unknown) => {
    defaultClient = undefined;
    throw error;
  });
  return defaultClient;
}

export async function readSecretString(secretId: string, options: SecretSourceOptions = {}): Promise<string> {
  const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
  const own = options.endpoint !== undefined || options.region !== undefined || options.credentials !== undefined;
  const client = own ? await createClient(options) : await runtimeClient();
  let answer: { SecretString?: string | undefined };
  try {
    answer = await client.send(new GetSecretValueCommand({ SecretId: secretId }), {
      abortSignal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    });
  } catch (error) {
    // Secrets Manager's error messages name the failure (a missing permission, an unknown
    // secret), never a value.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new Error(`Cannot read secret ${secretId}: ${reason}`.slice(0, 500));
  } finally {
    if (own) client.destroy();
  }
  if (typeof answer.SecretString !== 'string' || answer.SecretString.length === 0) {
    throw new Error(`Secret ${secretId} has no string value`);
  }
  return answer.SecretString;
}
