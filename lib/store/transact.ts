import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ValidationFailed } from '../errors.js';
import { unresolvedConflict } from './error-translation.js';

export type TransactWriteItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on items in one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

export type TransactionOutcome = { ok: true } | { ok: false; failedIndex: number };

/**
 * Applies all items or none. When a condition fails it answers which item's condition it was,
 * so the caller can tell a concurrent change from a taken name or a missing reference. Every
 * other refusal (a DynamoDB limit, an outage) arrives already translated by the client
 * (error-translation.ts) and passes through.
 */
export async function transactWriteDetailed(
  db: DynamoDBDocumentClient,
  items: TransactWriteItem[],
  options: TransactOptions = {},
): Promise<TransactionOutcome> {
  if (items.length > MAX_TRANSACTION_ITEMS) {
    throw new ValidationFailed(`The change touches ${items.length} items; one atomic change may touch at most ${MAX_TRANSACTION_ITEMS}`);
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand({ TransactItems: items }));
      return { ok: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failedIndex = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failedIndex >= 0) return { ok: false, failedIndex };
      const lostRace = reasons.findIndex((reason, index) => reason.Code === 'TransactionConflict' && options.lostRace?.(index));
      if (lostRace >= 0) return { ok: false, failedIndex: lostRace };
      // Another transaction held one of the items. Nothing was applied, so the same transaction
      // is tried again; its conditions then decide against whatever the other one wrote.
      if (!reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
      if (attempt >= CONFLICT_ATTEMPTS) throw unresolvedConflict(error);
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20 * attempt));
    }
  }
}

export interface TransactOptions {
  /**
   * Items whose conflict with a concurrent transaction means this one was computed from data
   * that is about to change (a version-checked aggregate): it is answered as that item's
   * failed condition at once, so the caller re-reads, instead of resending a stale transaction.
   */
  lostRace?: (index: number) => boolean;
}

/** How often a transaction cancelled by a concurrent one is tried in all. */
const CONFLICT_ATTEMPTS = 8;

/** Applies all items or none; answers false when a condition in it failed. */
export async function transactWrite(db: DynamoDBDocumentClient, items: TransactWriteItem[]): Promise<boolean> {
  return (await transactWriteDetailed(db, items)).ok;
}
