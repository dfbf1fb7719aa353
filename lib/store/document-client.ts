import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { STORE_CONNECTION_TIMEOUT_MS, STORE_REQUEST_TIMEOUT_MS } from '../time-budget.js';
import { refuseLateWrites } from './late-writes.js';
import { translateSdkErrors } from './error-translation.js';
import { queueLocalRequests } from './local-request-queue.js';

export interface DynamoConnection {
  region: string;
  /** DynamoDB Local's URL; omitted in the cloud. */
  endpoint?: string | undefined;
  /**
   * Which of DynamoDB Local's databases to use: it keeps one per access key id (and region)
   * and checks no signature, so for the engine `npm start` embeds this is a secret. Omitted,
   * the well-known key of a shared engine (the test suite's, or one run by hand).
   */
  accessKeyId?: string | undefined;
}

/** The key a local engine gets when none is given; anyone may guess it. */
export const WELL_KNOWN_LOCAL_KEY = 'local';

/** Credentials for a local engine: only the key id counts there, the secret is never checked. */
export function localCredentials(connection: DynamoConnection) {
  return { accessKeyId: connection.accessKeyId ?? WELL_KNOWN_LOCAL_KEY, secretAccessKey: 'local' };
}

/**
 * Bounded waits, so a store that is down answers 503 within seconds instead of holding the
 * request until the function times out (10 s) or, locally, forever. DynamoDB answers in
 * milliseconds; a local engine that refuses connections is not worth a third attempt.
 */
const TIMEOUTS = {
  connectionTimeout: STORE_CONNECTION_TIMEOUT_MS,
  requestTimeout: STORE_REQUEST_TIMEOUT_MS,
  // Without it the SDK only logs a warning when requestTimeout passes and keeps waiting: a store
  // that accepts the connection but never answers held the request until the function died.
  // lib/time-budget.ts counts on every attempt ending within requestTimeout.
  throwOnRequestTimeout: true,
} as const;
const LOCAL_MAX_ATTEMPTS = 2;
/**
 * A local client's requests wait for their turn in local-request-queue.ts, which bounds how many
 * are sent at once; the agent under it must then never hold one back, or its wait would count
 * against the timeouts above again.
 */
const LOCAL_AGENT = { maxSockets: Infinity } as const;

/**
 * One document client per process. Locally the credentials only pick the engine's database
 * (`localCredentials`); in Lambda the SDK's default chain supplies the role's credentials.
 * AWS errors become domain errors on this client (`error-translation.ts`), so none leaves lib/store.
 */
export function createDocumentClient(connection: DynamoConnection): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: connection.region,
    requestHandler: connection.endpoint ? { ...TIMEOUTS, httpAgent: LOCAL_AGENT } : TIMEOUTS,
    ...(connection.endpoint
      ? { endpoint: connection.endpoint, credentials: localCredentials(connection), maxAttempts: LOCAL_MAX_ATTEMPTS }
      : {}),
  });
  const db = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
  translateSdkErrors(db);
  refuseLateWrites(db);
  if (connection.endpoint) queueLocalRequests(db);
  return db;
}
