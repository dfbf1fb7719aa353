import { DynamoDBClient, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailable, ValidationFailed } from '../../lib/errors.js';
import { conditionalWrite } from '../../lib/store/dynamo-errors.js';
import { translateSdkErrors } from '../../lib/store/error-translation.js';
import { refuseLateWrites, UnconfirmedWrite } from '../../lib/store/late-writes.js';
import { transactWriteDetailed } from '../../lib/store/transact.js';

const ITEM_LIMIT = /larger than DynamoDB allows \(400 KB\)/;
const KEY_LIMIT = /a key may hold at most 1024 bytes/;

/** A client whose every call fails with `error`, as DynamoDB would answer, behind the translation. */
function failingClient(error: Error): DynamoDBDocumentClient {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'local', endpoint: 'http://127.0.0.1:1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
  );
  translateSdkErrors(db);
  db.middlewareStack.add(() => async () => Promise.reject(error), { step: 'initialize', priority: 'low' });
  return db;
}

function validation(message: string): Error {
  return Object.assign(new Error(message), { name: 'ValidationException' });
}

function cancelled(...reasons: Array<{ Code: string; Message?: string }>): TransactionCanceledException {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: reasons });
}

const put = new PutCommand({ TableName: 't', Item: { pk: 'a', sk: 'b' } });
const item = { Put: { TableName: 't', Item: { pk: 'a', sk: 'b' } } };

// The messages are DynamoDB's (the service's and DynamoDB Local's): the client translates each
// before a store's own catch sees it, so conditionalWrite and transact.ts need no size rules.
describe('DynamoDB refusals, as every store sees them', () => {
  it.each([
    ['Item size has exceeded the maximum allowed size', ITEM_LIMIT],
    ['Item size to update has exceeded the maximum allowed size', ITEM_LIMIT],
    ['Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes', KEY_LIMIT],
  ])('a single write refused with "%s" is a 400 naming the limit', async (message, limit) => {
    const refused = conditionalWrite(() => failingClient(validation(message)).send(put));

    await expect(refused).rejects.toThrow(ValidationFailed);
    await expect(refused).rejects.toThrow(limit);
  });

  it.each([
    ['Item size has exceeded the maximum allowed size', ITEM_LIMIT],
    ['Item size to update has exceeded the maximum allowed size', ITEM_LIMIT],
    ['Aggregated size of all range keys has exceeded the size limit of 1024 bytes', KEY_LIMIT],
    ['One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes', KEY_LIMIT],
  ])('a transaction with an item refused with "%s" is a 400 naming the limit', async (message, limit) => {
    const refused = transactWriteDetailed(failingClient(cancelled({ Code: 'None' }, { Code: 'ValidationError', Message: message })), [item, item]);

    await expect(refused).rejects.toThrow(ValidationFailed);
    await expect(refused).rejects.toThrow(limit);
  });

  // DynamoDB's answer (and DynamoDB Local's, the same words) to a transaction over 4 MB: a
  // ValidationException for the whole request, not a cancellation reason.
  it('answers a transaction over 4 MB as a 400 naming the limit', async () => {
    const tooLarge = validation('Transaction payload size cannot exceed 4MB. Payload Size: 4393038');
    const refused = transactWriteDetailed(failingClient(tooLarge), [item, item]);

    await expect(refused).rejects.toThrow(ValidationFailed);
    await expect(refused).rejects.toThrow(/larger than one DynamoDB transaction may carry \(4 MB\)/);
  });

  // On-demand DynamoDB cancels a transaction whose item's partition is over its throughput with
  // the ThrottlingError reason; the SDK does not retry a cancellation.
  it('answers a transaction cancelled for throttling as 503', async () => {
    const throttled = cancelled({ Code: 'None' }, { Code: 'ThrottlingError', Message: 'Throughput exceeds the current capacity of your table or index.' });

    await expect(transactWriteDetailed(failingClient(throttled), [item, item])).rejects.toThrow(ServiceUnavailable);
  });

  it('leaves a failed condition to the store, even beside an item over a limit', async () => {
    const db = failingClient(cancelled({ Code: 'ValidationError', Message: 'Item size has exceeded the maximum allowed size' }, { Code: 'ConditionalCheckFailed' }));

    expect(await transactWriteDetailed(db, [item, item])).toEqual({ ok: false, failedIndex: 1 });
  });

  it('answers an outage as 503 on every path', async () => {
    const throttled = Object.assign(new Error('slow down'), { name: 'ThrottlingException' });

    await expect(conditionalWrite(() => failingClient(throttled).send(put))).rejects.toThrow(ServiceUnavailable);
    await expect(transactWriteDetailed(failingClient(throttled), [item])).rejects.toThrow(ServiceUnavailable);
  });
});

/**
 * A client with the service's middleware whose HTTP attempts are answered in turn by `answers`:
 * 'timeout' as a request timeout (sent, no answer), otherwise DynamoDB's error of that name.
 */
function answeringClient(answers: (attempt: number) => 'timeout' | { status: number; type: string }) {
  let attempts = 0;
  const requestHandler = {
    async handle() {
      attempts += 1;
      const answer = answers(attempts);
      if (answer === 'timeout') throw Object.assign(new Error('timed out'), { name: 'TimeoutError' });
      const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${answer.type}`, message: answer.type });
      return { response: { statusCode: answer.status, headers: { 'content-type': 'application/x-amz-json-1.0' }, body: Readable.from([Buffer.from(body)]) } };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs() {
      return {};
    },
  };
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({ region: 'local', endpoint: 'http://127.0.0.1:1', maxAttempts: 2, credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, requestHandler }),
  );
  translateSdkErrors(db);
  refuseLateWrites(db);
  return { db, attempts: () => attempts };
}

const throttled = { status: 400, type: 'ThrottlingException' };

describe('a write after an attempt whose outcome is unknown', () => {
  it('is a transaction answered "may have been made" when the SDK\'s retry after a timeout is throttled', async () => {
    const { db, attempts } = answeringClient((attempt) => (attempt === 1 ? 'timeout' : throttled));

    await expect(transactWriteDetailed(db, [item])).rejects.toThrow(UnconfirmedWrite);
    expect(attempts()).toBe(2);
  });

  it('is a transaction answered "may have been made" when a retry after a 500 finds the same token in progress', async () => {
    const { db } = answeringClient((attempt) => (attempt === 1 ? { status: 500, type: 'InternalServerError' } : { status: 400, type: 'TransactionInProgressException' }));

    await expect(transactWriteDetailed(db, [item])).rejects.toThrow(UnconfirmedWrite);
  });

  it('is a single-item write answered "may have been made" when every attempt timed out', async () => {
    const { db, attempts } = answeringClient(() => 'timeout');

    await expect(conditionalWrite(() => db.send(put))).rejects.toThrow(UnconfirmedWrite);
    expect(attempts()).toBe(2);
  });

  it('is a plain outage when no attempt timed out', async () => {
    const { db } = answeringClient(() => throttled);

    const refused = conditionalWrite(() => db.send(put));
    await expect(refused).rejects.toThrow(ServiceUnavailable);
    await expect(refused).rejects.not.toThrow(UnconfirmedWrite);
  });
});
