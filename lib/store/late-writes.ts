import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors.js';
import { timeLeft } from '../request-scope.js';
import { WRITE_BUDGET_MS } from '../time-budget.js';

/** Every DynamoDB call that can change stored data. */
const WRITES = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

/** Names the refusal in logs; a client sees the domain error's message. */
export const LATE_WRITE_MESSAGE =
  'The request ran out of time before its change could be written safely; nothing was changed. Try again.';

/**
 * Refuses to start a write attempt when the request has less than WRITE_BUDGET_MS left
 * (lib/time-budget.ts): an attempt started later could still land after the request had to
 * answer, so a client would be told "failed" about a change that was made, and its retry
 * would make it twice. Refused, nothing is sent, so the 503 means nothing was stored.
 *
 * A middleware on the one client rather than a check in each store, so no write path can
 * forget it. It sits in the finalizeRequest step after the SDK's retry middleware, so it
 * runs before every attempt: a retry after a throttle is refused too when time ran short.
 * Outside an admin request (start-up, jobs, the SDK API) there is no deadline to keep.
 */
export function refuseLateWrites(db: DynamoDBDocumentClient): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (WRITES.has(context.commandName ?? '')) {
        const left = timeLeft();
        if (left !== undefined && left < WRITE_BUDGET_MS) throw new ServiceUnavailable(LATE_WRITE_MESSAGE);
      }
      return next(args);
    },
    { step: 'finalizeRequest', priority: 'low', name: 'togglesRefuseLateWrites', override: true },
  );
}
