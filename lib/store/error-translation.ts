import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailable, ValidationFailed } from '../errors.js';
import { outcomeWasUnknown, UnconfirmedWrite } from './late-writes.js';

/**
 * DynamoDB's own limits, as the 400s that name them. Requests can reach these only through
 * values no schema bounds tightly enough, so the store answers for them rather than a 500.
 */
const LIMITS: Array<{ pattern: RegExp; message: string }> = [
  {
    // A TransactWriteItems whose items add up to more than 4 MB: DynamoDB refuses the whole request.
    pattern: /transaction payload size cannot exceed|transaction request cannot be larger than/i,
    message: 'The change is larger than one DynamoDB transaction may carry (4 MB); make it in smaller parts',
  },
  {
    pattern: /primary key values must be under|key.*(size|length).*exceed|exceeded the size limit of 1024|size of (hash|range) ?key/i,
    message: 'A name or identifier is longer than the store allows (a key may hold at most 1024 bytes)',
  },
  {
    pattern: /item size|maximum allowed size|size of an item/i,
    message: 'The change would make a stored item larger than DynamoDB allows (400 KB)',
  },
  {
    pattern: /number (underflow|overflow)|significant digits|number.*(range|precision)/i,
    message: 'A number is outside what the store can keep (magnitudes from 1e-130 to 1e125, 38 significant digits)',
  },
  { pattern: /nesting levels/i, message: 'A value is nested deeper than the store allows (32 levels)' },
];

/** Network failures: the engine is down, unreachable or too slow to answer. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** DynamoDB's answers for "not now": throttling and its own outages, after the SDK's retries. */
const UNAVAILABLE_NAMES = new Set([
  'TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ThrottlingException', 'ProvisionedThroughputExceededException',
  'RequestLimitExceeded', 'InternalServerError', 'ServiceUnavailable', 'ServiceUnavailableException',
  // A single-item write on an item a transaction holds (DynamoDB: "there is an ongoing
  // transaction for the item"): nothing was written, and a moment later it can be.
  'TransactionConflictException',
  // A TransactWriteItems resent with the token of one DynamoDB is still applying (the SDK retries
  // it as a throttle): that one may yet land, so transact.ts sends the same request again, and
  // only when time runs out first does this reach a caller.
  'TransactionInProgressException',
]);

/**
 * The one place where DynamoDB's errors become domain errors. Installed on the one client of
 * the process (document-client.ts) as its outermost middleware, so it sees each call's final
 * error after the SDK's own retries, and every store, whether it sends a command itself or
 * goes through transact.ts or dynamo-errors.ts, gets the same answer for the same refusal.
 * A failed condition is the store's business (a concurrent change, a taken name): it passes
 * through untouched.
 */
export function translateSdkErrors(db: DynamoDBDocumentClient): void {
  db.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        const domainError = domainErrorFor(error) ?? error;
        // An outage answer to a write one of whose attempts timed out (late-writes.ts marks it):
        // that attempt may have landed, so "try again" would be wrong.
        if (domainError instanceof ServiceUnavailable && !(domainError instanceof UnconfirmedWrite) && outcomeWasUnknown(error)) {
          throw new UnconfirmedWrite({ cause: error });
        }
        throw domainError;
      }
    },
    { step: 'initialize', priority: 'high', name: 'togglesDomainErrors', override: true },
  );
}

export function domainErrorFor(error: unknown): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const { name, message } = error;
  const code = (error as { code?: unknown }).code;
  if (UNAVAILABLE_NAMES.has(name) || (typeof code === 'string' && CONNECTION_CODES.has(code))) {
    return new ServiceUnavailable('The data store is not reachable right now; try again in a moment', { cause: error });
  }
  if (name === 'ValidationException') return limitFor(message);
  if (name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: Array<{ Code?: string; Message?: string }> }).CancellationReasons ?? [];
    // Refused conditions are the caller's business (a concurrent change, a taken name).
    if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) return undefined;
    // A partition over its throughput (ThrottlingError, on-demand tables) is an outage for the
    // caller: the SDK does not retry a cancellation. A TransactionConflict stays for transact.ts,
    // which tries the transaction again.
    if (reasons.some((reason) => reason.Code === 'ThrottlingError') && !reasons.some((reason) => reason.Code === 'TransactionConflict')) {
      return new ServiceUnavailable('The data store is not reachable right now; try again in a moment', { cause: error });
    }
    // Any refused item may be the one over a limit; the first that names one is the answer.
    return reasons
      .filter((reason) => reason.Code === 'ValidationError')
      .map((reason) => limitFor(reason.Message ?? ''))
      .find((limit) => limit !== undefined);
  }
  return undefined;
}

/**
 * A transaction still cancelled by concurrent ones after transact.ts's retries: nothing was
 * applied, so the caller may try again (503 with Retry-After, never a 500).
 */
export function unresolvedConflict(cause: unknown): ServiceUnavailable {
  return new ServiceUnavailable('Other changes to the same data kept this one from being written; nothing was changed. Try again.', {
    cause,
  });
}

function limitFor(message: string): ValidationFailed | undefined {
  const limit = LIMITS.find((candidate) => candidate.pattern.test(message));
  return limit ? new ValidationFailed(limit.message) : undefined;
}
