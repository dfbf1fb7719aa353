import {
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

export type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * Applies all items or none. Answers false when a condition in it failed (a concurrent
 * change or a taken name), so the caller decides between retrying and a 409.
 */
export async function transactWrite(db: DynamoDBDocumentClient, items: TransactWriteItem[]): Promise<boolean> {
  try {
    await db.send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (error) {
    if (
      error instanceof TransactionCanceledException &&
      (error.CancellationReasons ?? []).some((reason) => reason.Code === 'ConditionalCheckFailed')
    ) {
      return false;
    }
    throw error;
  }
}
