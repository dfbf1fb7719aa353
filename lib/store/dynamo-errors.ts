import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { ValidationFailed } from '../errors.js';

/** True when a conditional write was refused because its condition did not hold. */
export function isConditionFailed(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException;
}

/**
 * Runs a write, answering false when its condition failed and turning DynamoDB's item-size
 * refusal into a 400; every other AWS error stays a plain failure (a 500 with no internals).
 */
export async function conditionalWrite(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    if (isItemTooLarge(error)) {
      throw new ValidationFailed('The change would make the stored item larger than DynamoDB allows (400 KB)');
    }
    throw error;
  }
}

function isItemTooLarge(error: unknown): boolean {
  return (
    error instanceof Error &&
    error.name === 'ValidationException' &&
    /item size|maximum allowed size/i.test(error.message)
  );
}
