import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';

/** True when a conditional write was refused because its condition did not hold. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException;
}

/**
 * Runs a write, answering false when its condition failed. Every other error passes through:
 * the client has already turned DynamoDB's limits and outages into domain errors
 * (error-translation.ts), and anything left is a plain failure (a 500 with no internals).
 */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
