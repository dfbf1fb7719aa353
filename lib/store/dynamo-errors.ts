import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { outcomeWasUnknown, UnconfirmedWrite } from './late-writes.js';

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

/**
 * True when a single-item write (PutItem, UpdateItem, DeleteItem) was refused because a
 * transaction was working on its item: DynamoDB's TransactionConflictException, which the client
 * has already turned into a ServiceUnavailable that keeps it as its cause. Nothing was written by
 * the refused attempt (an earlier attempt of the same call may have been: `outcomeWasUnknown`).
 */
export function isHeldByTransaction(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current.name === 'TransactionConflictException') return true;
  }
  return false;
}

/** How often a single-item write refused by a transaction on its item is tried in all. */
const HELD_ITEM_ATTEMPTS = 8;

/**
 * Runs a single-item write again while a transaction holds its item. The SDK does not retry
 * TransactionConflictException, and a transaction holds its items only while it commits (or is
 * refused): a moment later the same write goes through, its own condition deciding against
 * whatever the transaction wrote. For writes that must not fail because another request happens
 * to write the same item in a transaction (a login's bookkeeping on the user a concurrent login
 * is linking). The waits grow as transact.ts's do for a cancelled transaction; the late-write
 * guard (late-writes.ts) still refuses an attempt the request has no time left for.
 */
export async function retryWhileHeldByTransaction<T>(write: () => Promise<T>, options: { idempotent?: boolean } = {}): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (!isHeldByTransaction(error)) throw error;
      // Refused on the SDK's retry of an attempt that timed out: that attempt may have landed,
      // and sending the write again could apply it twice (a failed login counted twice). The
      // refusal alone is no sign (after a throttled attempt nothing was written): the late-write
      // guard marks the error when an earlier attempt's outcome is unknown. A write that sets the
      // same values whether or not it landed before (`idempotent`) is simply sent again.
      if (outcomeWasUnknown(error) && !options.idempotent) {
        throw error instanceof UnconfirmedWrite ? error : new UnconfirmedWrite({ cause: error });
      }
      if (attempt >= HELD_ITEM_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));
    }
  }
}

/**
 * True when a transaction was still cancelled by concurrent ones after transact.ts's tries (its
 * ServiceUnavailable keeps DynamoDB's TransactionCanceledException as its cause). Nothing was
 * applied; a writer whose transaction is rebuilt from fresh values may send it again.
 */
export function isUnresolvedTransactionConflict(error: unknown): boolean {
  // After an attempt whose outcome is unknown the transaction may have been applied: not this.
  if (error instanceof UnconfirmedWrite) return false;
  const cause = error instanceof Error ? error.cause : undefined;
  if (!(cause instanceof Error) || cause.name !== 'TransactionCanceledException') return false;
  const reasons = (cause as { CancellationReasons?: Array<{ Code?: string }> }).CancellationReasons ?? [];
  return reasons.some((reason) => reason.Code === 'TransactionConflict');
}
