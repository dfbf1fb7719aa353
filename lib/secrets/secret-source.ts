/**
 * Reads a Secrets Manager secret through the AWS Parameters and Secrets Lambda Extension, a
 * local HTTP endpoint inside the Lambda sandbox. That keeps the Secrets Manager SDK out of the
 * bundle; the extension signs the call with the function's role and caches the answer.
 */

export interface SecretSourceOptions {
  /** The extension's port; Lambda sets it from the layer's configuration. */
  port?: number;
  /** Proves the caller runs inside this sandbox; Lambda sets AWS_SESSION_TOKEN. */
  sessionToken?: string;
  timeoutMs?: number;
}

const DEFAULT_PORT = 2773;

export async function readSecretString(secretId: string, options: SecretSourceOptions = {}): Promise<string> {
  const port = options.port ?? (Number(process.env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT) || DEFAULT_PORT);
  const sessionToken = options.sessionToken ?? process.env.AWS_SESSION_TOKEN;
  if (!sessionToken) throw new Error('Cannot read a secret: AWS_SESSION_TOKEN is not set (not running in Lambda?)');

  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`;
  const response = await fetch(url, {
    headers: { 'X-Aws-Parameters-Secrets-Token': sessionToken },
    signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
  });
  if (!response.ok) {
    // The extension's error bodies name the failure (such as a missing permission), never a value.
    const detail = (await response.text()).slice(0, 200);
    throw new Error(`The secrets extension answered ${response.status} for ${secretId}: ${detail}`);
  }
  const body = (await response.json()) as { SecretString?: unknown };
  if (typeof body.SecretString !== 'string' || body.SecretString.length === 0) {
    throw new Error(`Secret ${secretId} has no string value`);
  }
  return body.SecretString;
}
