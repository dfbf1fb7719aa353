import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface DynamoConnection {
  region: string;
  /** DynamoDB Local's URL; omitted in the cloud. */
  endpoint?: string | undefined;
}

/**
 * One document client per process. Local engines accept any credentials, so fixed dummy
 * ones are given there; in Lambda the SDK's default chain supplies the role's credentials.
 */
export function createDocumentClient(connection: DynamoConnection): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: connection.region,
    ...(connection.endpoint
      ? { endpoint: connection.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : {}),
  });
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
}
