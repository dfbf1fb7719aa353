import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable } from '../errors.js';
import { hasTimeToWrite, noteWriteLanded, TooLateToWrite } from '../request-deadline.js';
import { BOOKKEEPING_PARTITIONS } from './table-design.js';

/** Every DynamoDB call that can change stored data. */
const WRITES = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

/** Failures after which DynamoDB may or may not have applied the attempt. */
const OUTCOME_UNKNOWN = new Set(['TimeoutError', 'ETIMEDOUT', 'ECONNRESET', 'EPIPE']);

/**
 * Refuses to start a write attempt when the request has less than WRITE_BUDGET_MS left
 * (lib/time-budget.ts): an attempt started later could still land after the request had to
 * answer, so a client would be told "failed" about a change that was made, and its retry
 * would make it twice. Refused, nothing is sent, so the 503 means nothing was stored.
 *
 * A middleware on the one client rather than a check in each store, so no write path can
 * forget it. It sits in the finalizeRequest step after the SDK's retry middleware, so it
 * runs before every attempt: a retry after a throttle is refused too when time ran short.
 * A retry after an attempt that timed out is different: that attempt may have landed, and the
 * refusal says so rather than "nothing was changed". A write that was stored is noted, so a
 * failure later in the same request is not answered "nothing was changed" either
 * (lib/request-deadline.ts). Outside an admin request (start-up, jobs, the SDK API) there is no
 * deadline to keep.
 */
export function refuseLateWrites(db: DynamoDBDocumentClient): void {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      if (!WRITES.has(context.commandName ?? '')) return next(args);
      const attempts = context as { togglesUnknownOutcome?: boolean };
      if (!hasTimeToWrite()) throw attempts.togglesUnknownOutcome ? new UnconfirmedWrite() : new TooLateToWrite();
      try {
        const stored = await next(args);
        if (!onlyBookkeeping(args.input)) noteWriteLanded();
        return stored;
      } catch (error) {
        if (outcomeUnknown(error)) attempts.togglesUnknownOutcome = true;
        // Whatever a later attempt of the same call answers (a conflict, a failed condition, a
        // throttle), an earlier one may have landed: the error says so to the store that sent it.
        if (attempts.togglesUnknownOutcome && error instanceof Error) markOutcomeUnknown(error);
        throw error;
      }
    },
    { step: 'finalizeRequest', priority: 'low', name: 'togglesRefuseLateWrites', override: true },
  );
}

/** A single-item write to a bookkeeping partition (table-design.ts); transactions always count. */
function onlyBookkeeping(input: unknown): boolean {
  const { Key, Item } = input as { Key?: { pk?: { S?: string } }; Item?: { pk?: { S?: string } } };
  const pk = (Key ?? Item)?.pk?.S;
  return pk !== undefined && BOOKKEEPING_PARTITIONS.has(pk);
}

/** A 503 for a change that may or may not have been made: the client must look before trying again. */
export class UnconfirmedWrite extends ServiceUnavailable {
  constructor(options?: { cause?: unknown }) {
    super('The data store did not confirm the change in time; it may or may not have been made. Check before trying again.', options);
  }
}

const OUTCOME_UNKNOWN_MARK = Symbol('togglesOutcomeUnknown');

function markOutcomeUnknown(error: Error): void {
  Object.defineProperty(error, OUTCOME_UNKNOWN_MARK, { value: true, enumerable: false });
}

/**
 * True when the call that failed with `error` had an attempt whose outcome is unknown (it timed
 * out or lost its connection after it was sent), so its data may have been written whatever the
 * final answer says. Looks through the causes, as the client's domain errors keep the SDK's.
 */
export function outcomeWasUnknown(error: unknown): boolean {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if ((current as { [OUTCOME_UNKNOWN_MARK]?: boolean })[OUTCOME_UNKNOWN_MARK] === true || current instanceof UnconfirmedWrite) return true;
  }
  return false;
}

function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return OUTCOME_UNKNOWN.has(error.name) || OUTCOME_UNKNOWN.has(String((error as { code?: unknown }).code));
}
