/**
 * DynamoDB's error answers, in the JSON 1.0 protocol's shape: HTTP status, `__type` with
 * DynamoDB's namespace (the SDK keeps what follows `#` as the error's name) and the message.
 * The messages are the service's own words as its documentation and answers show them.
 */
export interface AwsError {
  status: number;
  body: Record<string, unknown>;
}

const NAMESPACE = 'com.amazonaws.dynamodb.v20120810#';

export type CancellationCode = 'None' | 'TransactionConflict' | 'ThrottlingError';

export interface CancellationReason {
  Code: CancellationCode;
  Message?: string;
}

/** A transaction's item held by another request (CancellationReasons). */
export const CONFLICT_MESSAGE = 'Transaction is ongoing for the item';
/** On-demand throttling, as DynamoDB words it (ThrottlingException and the ThrottlingError reason). */
export const THROTTLING_MESSAGE =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html';

export function transactionCanceled(reasons: CancellationReason[]): AwsError {
  return {
    status: 400,
    body: {
      __type: `${NAMESPACE}TransactionCanceledException`,
      Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(', ')}]`,
      CancellationReasons: reasons,
    },
  };
}

export function transactionConflict(): AwsError {
  return {
    status: 400,
    body: { __type: `${NAMESPACE}TransactionConflictException`, message: CONFLICT_MESSAGE },
  };
}

export function throttling(reason: string, resource: string): AwsError {
  return {
    status: 400,
    body: {
      __type: `${NAMESPACE}ThrottlingException`,
      message: THROTTLING_MESSAGE,
      throttlingReasons: [{ reason, resource }],
    },
  };
}

export function internalServerError(): AwsError {
  return { status: 500, body: { __type: `${NAMESPACE}InternalServerError`, message: 'Internal server error' } };
}

/** A TransactWriteItems whose ClientRequestToken belongs to one still being applied. */
export function transactionInProgress(): AwsError {
  return {
    status: 400,
    body: { __type: `${NAMESPACE}TransactionInProgressException`, message: 'Transaction is in progress' },
  };
}
