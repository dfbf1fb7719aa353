import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from './table-design.js';

/**
 * The next value of a numbered kind (users, groups …): one atomic ADD, so concurrent creates
 * never share an id. Values of failed creates are skipped, never reused.
 */
export async function nextCounterValue(db: DynamoDBDocumentClient, tableName: string, kind: string): Promise<number> {
  const { Attributes } = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.counter(kind),
      UpdateExpression: 'ADD #value :one',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.value);
}
