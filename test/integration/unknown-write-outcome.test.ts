import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { startAwsLikeDynamoDb, type AwsLikeEngine, type AwsLikeOptions } from '../../local/aws-like-dynamodb/engine.js';
import { runWithDeadline } from '../../lib/request-deadline.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { retryWhileHeldByTransaction } from '../../lib/store/dynamo-errors.js';
import { groupsRevisionOf, moveGroupsRevision } from '../../lib/store/groups-revision.js';
import { translateSdkErrors } from '../../lib/store/error-translation.js';
import { refuseLateWrites, UnconfirmedWrite } from '../../lib/store/late-writes.js';
import { queueLocalRequests } from '../../lib/store/local-request-queue.js';
import { keys } from '../../lib/store/table-design.js';
import { transactWrite } from '../../lib/store/transact.js';
import { WRITE_BUDGET_MS } from '../../lib/time-budget.js';
import { DynamoUserStore } from '../../lib/users/dynamo-store.js';
import { UserService } from '../../lib/users/service.js';
import { unique } from '../support/services.js';

// A write whose first attempt landed but whose answer came after the SDK gave up on it (its
// request timeout), so the SDK sent it again: what the store does next must not depend on
// whether that attempt landed. Each test holds the first attempt's answer at the engine (after
// DynamoDB Local applied it) until the test lets it go, so the SDK's timeout always passes first;
// what follows is arranged by the requests the engine sees, never by time.
const engines: AwsLikeEngine[] = [];
const clients: DynamoDBDocumentClient[] = [];

afterAll(async () => {
  for (const client of clients) client.destroy();
  await Promise.all(engines.map((engine) => engine.stop()));
});

async function engineWithTable(options: Omit<AwsLikeOptions, 'target'>): Promise<{ engine: AwsLikeEngine; tableName: string }> {
  const engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint, transactionHoldMs: 0, ...options });
  engines.push(engine);
  const tableName = unique('unknown-outcome');
  await prepareLocalTable({ region: 'local', endpoint: engine.endpoint }, tableName);
  return { engine, tableName };
}

/** The service's client middleware (document-client.ts), with a request timeout a test can outwait. */
function client(endpoint: string, requestTimeout: number, { queued = false } = {}): DynamoDBDocumentClient {
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: 'local', endpoint, maxAttempts: 2, credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      requestHandler: { requestTimeout, throwOnRequestTimeout: true },
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  translateSdkErrors(db);
  refuseLateWrites(db);
  if (queued) queueLocalRequests(db);
  clients.push(db);
  return db;
}

/**
 * The SDK's request timeout: the held first attempt always outlasts it; every other attempt must
 * be answered within it, also by a DynamoDB Local slowed by a loaded machine, or it would be a
 * second unknown outcome the test did not arrange.
 */
const SDK_TIMEOUT_MS = 4_000;

function latch() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const rejection = async (promise: Promise<unknown>): Promise<any> => promise.then(() => expect.fail('expected a refusal'), (error: unknown) => error);

describe('a transaction whose first attempt landed unanswered', () => {
  it('creates the user once and answers it created: every request for it carries the first one\'s token', async () => {
    const answer = latch();
    const tokens: string[] = [];
    let holdNext = false;
    const isUserInsert = (body: Record<string, any>) =>
      (body.TransactItems ?? []).some((action: any) => action.Put?.Item?.pk?.S === 'USERS' && action.Put?.ConditionExpression === 'attribute_not_exists(pk)');
    const { engine, tableName } = await engineWithTable({
      hold: async (operation) => {
        if (operation !== 'TransactWriteItems' || !holdNext) return;
        holdNext = false;
        await answer.opened;
      },
      delay: async (operation, body) => {
        if (operation !== 'TransactWriteItems' || !isUserInsert(body)) return;
        tokens.push(body.ClientRequestToken);
        // The first resend comes once the SDK gave up on the first attempt: its answer may go now.
        if (tokens.length === 2) answer.open();
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const store = new DynamoUserStore(db, tableName);
    const users = new UserService(store, { groupIdsOf: async () => [] });
    const identity = { issuer: 'https://idp.example', subject: unique('subject') };

    holdNext = true;
    const created = await users.createLinked({ email: 'alice@example.com', name: 'Alice', rootRole: 'Viewer' as never }, identity, 'oidc-login');

    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(new Set(tokens).size).toBe(1);
    expect((await users.findByIdentity(identity))?.id).toBe(created.id);
    const { Items = [] } = await db.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }));
    expect(Items.filter((item) => String(item.pk).startsWith('EVENTS#')).map((item) => item.type)).toEqual(['user-created']);
    expect(Items.filter((item) => String(item.pk).startsWith('EVENT_COUNTS#')).reduce((sum, item) => sum + Number(item.written), 0)).toBe(1);
    expect(engine.stats().transactionsInProgress + engine.stats().idempotentResends).toBeGreaterThanOrEqual(1);
  });

  it('sends its own resends with the first request\'s token after the SDK gave up, and applies the change once', async () => {
    const answer = latch();
    const tokens: string[] = [];
    let holdNext = false;
    const { engine, tableName } = await engineWithTable({
      hold: async () => {
        if (!holdNext) return;
        holdNext = false;
        await answer.opened;
      },
      delay: async (operation, body) => {
        if (operation !== 'TransactWriteItems') return;
        tokens.push(body.ClientRequestToken);
        // Both of the SDK's attempts were answered "in progress": transact.ts sends again.
        if (tokens.length === 3) answer.open();
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const counter = { pk: unique('counter'), sk: 'value' };

    holdNext = true;
    const applied = await transactWrite(db, [
      { Update: { TableName: tableName, Key: counter, UpdateExpression: 'ADD written :one', ExpressionAttributeValues: { ':one': 1 } } },
    ]);

    expect(applied).toBe(true);
    expect(tokens.length).toBeGreaterThanOrEqual(3);
    expect(new Set(tokens).size).toBe(1);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: counter, ConsistentRead: true }))).Item?.written).toBe(1);
  });
});

describe('a transaction moving the groups\' revision that succeeded after an unknown outcome', () => {
  it('moves the revision once more with a fresh stamp, as its commit may have come after its own stamp\'s window', async () => {
    const answer = latch();
    const tokens: string[] = [];
    let holdNext = false;
    const { engine, tableName } = await engineWithTable({
      hold: async () => {
        if (!holdNext) return;
        holdNext = false;
        await answer.opened;
      },
      delay: async (operation, body) => {
        if (operation !== 'TransactWriteItems') return;
        tokens.push(body.ClientRequestToken);
        if (tokens.length === 3) answer.open();
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const group = { pk: unique('group'), sk: 'value' };
    const stamp = 1_000;

    holdNext = true;
    const applied = await transactWrite(db, [
      { Put: { TableName: tableName, Item: { ...group, name: 'admins' } } },
      moveGroupsRevision(tableName, stamp),
    ]);

    const revision = groupsRevisionOf((await db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }))).Item);
    expect(applied).toBe(true);
    expect(new Set(tokens).size).toBe(1);
    expect(revision?.value).toBe(2);
    expect(revision?.since).toBe(stamp);
    expect(revision?.movedAt).toBeGreaterThan(stamp);
  });

  it('moves it once when the transaction was answered at once', async () => {
    const { engine, tableName } = await engineWithTable({});
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const stamp = 1_000;

    await transactWrite(db, [{ Put: { TableName: tableName, Item: { pk: unique('group'), sk: 'value' } } }, moveGroupsRevision(tableName, stamp)]);

    const revision = groupsRevisionOf((await db.send(new GetCommand({ TableName: tableName, Key: keys.groupsRevision(), ConsistentRead: true }))).Item);
    expect(revision).toEqual({ value: 1, since: stamp, movedAt: stamp });
  });
});

describe('a single-item write whose first attempt landed unanswered', () => {
  it('is not sent again when its SDK retry meets a transaction on its item: the change may have been made', async () => {
    const firstAnswer = latch();
    const transactionMayGo = latch();
    const attemptArrived = latch();
    let updates = 0;
    let holdTransaction = false;
    let transaction: Promise<unknown> | undefined;
    const { engine, tableName } = await engineWithTable({
      answerDelay: async (operation) => {
        if (operation === 'UpdateItem' && updates === 1) await firstAnswer.opened;
      },
      hold: async (operation) => {
        if (operation !== 'TransactWriteItems' || !holdTransaction) return;
        holdTransaction = false;
        await transactionMayGo.opened;
      },
      delay: async (operation) => {
        if (operation !== 'UpdateItem') return;
        updates += 1;
        if (updates === 1) attemptArrived.open();
        // A third try (a resend after the transaction's refusal) finds the item free again.
        if (updates === 3) {
          transactionMayGo.open();
          await transaction;
        }
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const counter = { pk: unique('failed-logins'), sk: 'value' };

    const write = retryWhileHeldByTransaction(() =>
      db.send(new UpdateCommand({ TableName: tableName, Key: counter, UpdateExpression: 'ADD attempts :one', ExpressionAttributeValues: { ':one': 1 } })),
    );
    const refused = rejection(write);
    await attemptArrived.opened;
    holdTransaction = true;
    transaction = transactWrite(db, [{ ConditionCheck: { TableName: tableName, Key: counter, ConditionExpression: 'attribute_exists(pk)' } }]);
    const error = await refused;
    transactionMayGo.open();
    firstAnswer.open();
    await transaction;

    expect(error).toBeInstanceOf(UnconfirmedWrite);
    expect(updates).toBe(2);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: counter, ConsistentRead: true }))).Item?.attempts).toBe(1);
  });

  it('is sent again when it sets the same values however often it lands (a login\'s "seen at")', async () => {
    const firstAnswer = latch();
    const transactionMayGo = latch();
    const attemptArrived = latch();
    let updates = 0;
    let holdTransaction = false;
    let transaction: Promise<unknown> | undefined;
    const { engine, tableName } = await engineWithTable({
      answerDelay: async (operation) => {
        if (operation === 'UpdateItem' && updates === 1) await firstAnswer.opened;
      },
      hold: async (operation) => {
        if (operation !== 'TransactWriteItems' || !holdTransaction) return;
        holdTransaction = false;
        await transactionMayGo.opened;
      },
      delay: async (operation) => {
        if (operation !== 'UpdateItem') return;
        updates += 1;
        if (updates === 1) attemptArrived.open();
        if (updates === 3) {
          transactionMayGo.open();
          await transaction;
        }
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS);
    const user = { pk: unique('user'), sk: 'value' };

    const write = retryWhileHeldByTransaction(
      () => db.send(new UpdateCommand({ TableName: tableName, Key: user, UpdateExpression: 'SET seenAt = :at', ExpressionAttributeValues: { ':at': 'now' } })),
      { idempotent: true },
    );
    await attemptArrived.opened;
    holdTransaction = true;
    transaction = transactWrite(db, [{ ConditionCheck: { TableName: tableName, Key: user, ConditionExpression: 'attribute_exists(pk)' } }]);
    await write;
    transactionMayGo.open();
    firstAnswer.open();
    await transaction;

    expect(updates).toBe(3);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: user, ConsistentRead: true }))).Item?.seenAt).toBe('now');
  });
});

describe('a call stopped at its request\'s deadline after an attempt whose outcome is unknown', () => {
  it('answers that the change may have been made, not that nothing was changed', async () => {
    const firstAnswer = latch();
    const realNow = Date.now.bind(Date);
    const clock = vi.spyOn(Date, 'now');
    // The first attempt starts well within the request's time. Once DynamoDB has applied it, the
    // clock (not the test) moves past the deadline, so the SDK's retry after its timeout is a
    // call of a stopped function.
    const deadline = realNow() + WRITE_BUDGET_MS + 60_000;
    let updates = 0;
    const { engine, tableName } = await engineWithTable({
      answerDelay: async (operation) => {
        if (operation !== 'UpdateItem' || (updates += 1) !== 1) return;
        const shift = deadline - realNow() + 60_000;
        clock.mockImplementation(() => realNow() + shift);
        await firstAnswer.opened;
      },
    });
    const db = client(engine.endpoint, SDK_TIMEOUT_MS, { queued: true });
    const item = { pk: unique('stopped'), sk: 'value' };

    let error: unknown;
    try {
      error = await rejection(runWithDeadline(deadline, () => db.send(new UpdateCommand({
        TableName: tableName, Key: item, UpdateExpression: 'SET landed = :yes', ExpressionAttributeValues: { ':yes': true },
      }))));
    } finally {
      clock.mockRestore();
      firstAnswer.open();
    }

    expect(error).toBeInstanceOf(UnconfirmedWrite);
    expect(updates).toBe(1);
    expect((await db.send(new GetCommand({ TableName: tableName, Key: item, ConsistentRead: true }))).Item?.landed).toBe(true);
  }, 30_000);
});
