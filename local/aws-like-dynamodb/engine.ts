import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CapacityMeter, itemSize, PARTITION_READ_UNITS_PER_SECOND, PARTITION_WRITE_UNITS_PER_SECOND, readUnits, writeUnits,
  type AttributeValue, type Item,
} from './capacity.js';
import {
  CONFLICT_MESSAGE, internalServerError, throttling, THROTTLING_MESSAGE, transactionCanceled, transactionConflict, transactionInProgress,
  type AwsError, type CancellationReason,
} from './errors.js';
import { BLOCKED_BY, InFlight, type HolderKind } from './in-flight.js';
import { seededRandom } from './random.js';

/**
 * An engine that answers as DynamoDB does under concurrency, load and faults, in front of
 * DynamoDB Local: a server speaking DynamoDB's JSON 1.0 protocol (POST, `X-Amz-Target:
 * DynamoDB_20120810.<Operation>`) that forwards every request it lets through to DynamoDB Local
 * unchanged and passes its answer back unchanged. The real SDK talks to it over HTTP.
 *
 * What it adds, where DynamoDB Local is more forgiving than DynamoDB:
 * - transaction conflicts (in-flight.ts): DynamoDB Local serialises overlapping transactions;
 *   here a request that overlaps one in flight is refused as DynamoDB refuses it. "In flight" is
 *   from when the request arrives until DynamoDB Local has answered it, and at least
 *   `transactionHoldMs` for a transaction (DynamoDB Local answers in about a millisecond; a
 *   transaction on DynamoDB runs in two phases and takes longer);
 * - per-partition throughput (capacity.ts): beyond 1,000 WCU or 3,000 RCU per second on one
 *   partition key value, ThrottlingException (on-demand), or a cancelled transaction with
 *   ThrottlingError at the throttled items;
 * - faults: InternalServerError and added latency at seeded rates;
 * - ClientRequestToken: a TransactWriteItems resent with the token of one it forwarded (an SDK
 *   retry after a timeout) is answered TransactionInProgressException while that one is in
 *   flight, as DynamoDB answers it (the SDK retries it), and for 10 minutes after it succeeded is
 *   forwarded without the conflict and throughput checks, so DynamoDB Local answers it as
 *   DynamoDB does: success, without writing again. Without this a resend was cancelled for a
 *   conflict with its own first request, which no store can tell from "nothing was applied".
 * The transaction's limits (100 actions, 4 MB) DynamoDB Local already enforces, with DynamoDB's
 * ValidationException and messages ("Member must have length less than or equal to 100",
 * "Transaction payload size cannot exceed 4MB. Payload Size: …"): they pass through.
 */
export interface AwsLikeOptions {
  /** DynamoDB Local's URL. */
  target: string;
  /** How long a transaction holds its items; default 5 ms. */
  transactionHoldMs?: number;
  /** How long a single-item write (PutItem, UpdateItem, DeleteItem, each of a BatchWriteItem) holds its items; default 2 ms. */
  writeHoldMs?: number;
  /** Share of requests answered InternalServerError (not forwarded); default 0. */
  faultRate?: number;
  /**
   * Requests answered InternalServerError (not forwarded) besides `faultRate`'s: a test picks
   * the very request that fails (by operation and body), so a fault lands where it means to.
   */
  faultWhen?: (operation: string, body: Record<string, any>) => boolean;
  /** Share of requests delayed by `latencyMs` before anything else; default 0. */
  latencyRate?: number;
  latencyMs?: number;
  seed?: number;
  /** Per-partition ceilings; default DynamoDB's 1,000 WCU and 3,000 RCU per second. */
  limits?: { read: number; write: number };
  /** The clock the throughput windows follow; default Date.now. */
  now?: () => number;
  /**
   * Awaited while a transaction holds its items, besides `transactionHoldMs`: a test holds a
   * transaction in flight for as long as it needs, without depending on time.
   */
  hold?: (operation: 'TransactWriteItems' | 'TransactGetItems') => Promise<void>;
  /**
   * Awaited before any request is looked at (after it is counted), whatever its operation: a
   * test keeps requests in flight for as long as it needs, without depending on time.
   */
  delay?: (operation: string, body: Record<string, any>) => Promise<void> | undefined;
  /**
   * Awaited after DynamoDB Local answered a write or transaction and before the answer is passed
   * on, its items held meanwhile: a test makes a request land and its answer arrive after the
   * client gave up on it, without depending on time.
   */
  answerDelay?: (operation: string, body: Record<string, any>) => Promise<void> | undefined;
}

export interface AwsLikeStats {
  requests: number;
  /** TransactWriteItems and TransactGetItems answered TransactionCanceledException for a conflict. */
  cancelledTransactions: number;
  /** CancellationReasons with code TransactionConflict, over all cancelled transactions. */
  conflictReasons: number;
  /** TransactWriteItems answered TransactionInProgressException: resent while their first was in flight. */
  transactionsInProgress: number;
  /** TransactWriteItems forwarded as resends of one that succeeded, for DynamoDB Local's idempotent answer. */
  idempotentResends: number;
  /** PutItem, UpdateItem and DeleteItem answered TransactionConflictException. */
  singleItemConflicts: number;
  /** Requests answered ThrottlingException, or transactions cancelled with ThrottlingError. */
  throttled: number;
  faults: number;
  delayed: number;
  /** The most requests the engine was answering at one time: how many a client sends at once. */
  mostAtOnce: number;
  /** Capacity units consumed, as DynamoDB computes them from item sizes and read consistency. */
  readUnits: number;
  writeUnits: number;
}

export interface AwsLikeEngine {
  endpoint: string;
  stats(): AwsLikeStats;
  stop(): Promise<void>;
}

interface KeySchema {
  hash: string;
  range?: string | undefined;
  indexes: Map<string, string>;
  arn: string;
}

type Body = Record<string, any>;

/**
 * Who runs through the engine when AWS_LIKE_DYNAMODB is unset: the tests (`npm test`, the
 * global setup) and the benchmarks (`npm run bench`) do, so what passes there has met DynamoDB's
 * conflict and throughput rules; `npm start` does not (a local server for trying the API).
 * AWS_LIKE_DYNAMODB=0 turns it off, =1 on, for any of them.
 */
export const AWS_LIKE_BY_DEFAULT = { tests: true, bench: true, start: false } as const;

/** AWS_LIKE_DYNAMODB: `1`/`true` on, `0`/`false` off, unset or empty the caller's default. */
export function awsLikeEnabled(env: NodeJS.ProcessEnv | Record<string, string | undefined>, defaultOn: boolean): boolean {
  const raw = (env.AWS_LIKE_DYNAMODB ?? '').trim().toLowerCase();
  if (raw === '') return defaultOn;
  if (raw === '1' || raw === 'true') return true;
  if (raw === '0' || raw === 'false') return false;
  throw new Error(`AWS_LIKE_DYNAMODB must be 1 or 0, not ${env.AWS_LIKE_DYNAMODB}`);
}

/**
 * The switch and the knobs, from the environment: undefined when the engine is off
 * (`awsLikeEnabled`, with the caller's default from AWS_LIKE_BY_DEFAULT).
 */
export function awsLikeOptionsFromEnv(
  env: NodeJS.ProcessEnv | Record<string, string | undefined>, target: string, { defaultOn }: { defaultOn: boolean },
): AwsLikeOptions | undefined {
  if (!awsLikeEnabled(env, defaultOn)) return undefined;
  const number = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number ≥ 0, not ${raw}`);
    return value;
  };
  const options: AwsLikeOptions = { target };
  const set = <K extends keyof AwsLikeOptions>(key: K, value: AwsLikeOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set('transactionHoldMs', number('AWS_LIKE_DYNAMODB_HOLD_MS'));
  set('faultRate', number('AWS_LIKE_DYNAMODB_FAULT_RATE'));
  set('latencyRate', number('AWS_LIKE_DYNAMODB_LATENCY_RATE'));
  set('latencyMs', number('AWS_LIKE_DYNAMODB_LATENCY_MS'));
  set('seed', number('AWS_LIKE_DYNAMODB_SEED'));
  return options;
}

/** How long DynamoDB keeps a ClientRequestToken after its request completed. */
const TOKEN_WINDOW_MS = 10 * 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startAwsLikeDynamoDb(options: AwsLikeOptions): Promise<AwsLikeEngine> {
  const target = new URL(options.target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const inFlight = new InFlight();
  const random = seededRandom(options.seed ?? 1);
  const meter = new CapacityMeter(options.now ?? Date.now, options.limits ?? { read: PARTITION_READ_UNITS_PER_SECOND, write: PARTITION_WRITE_UNITS_PER_SECOND });
  const holdMs = options.transactionHoldMs ?? 5;
  const writeHoldMs = options.writeHoldMs ?? 2;
  const schemas = new Map<string, Promise<KeySchema>>();
  const stats: Omit<AwsLikeStats, 'readUnits' | 'writeUnits'> = {
    requests: 0, cancelledTransactions: 0, conflictReasons: 0, transactionsInProgress: 0, idempotentResends: 0, singleItemConflicts: 0,
    throttled: 0, faults: 0, delayed: 0, mostAtOnce: 0,
  };
  const clock = options.now ?? Date.now;
  /** Forwarded transactions by database and token: in flight, or when they succeeded. */
  const tokens = new Map<string, { finishedAt?: number }>();
  let answering = 0;

  interface Forwarded { status: number; headers: IncomingHttpHeaders; body: Buffer }

  function forward(headers: IncomingHttpHeaders, body: Buffer): Promise<Forwarded> {
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: target.hostname, port: target.port, path: '/', method: 'POST', agent, headers: { ...headers, 'content-length': String(body.length) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 500, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** The table's keys, asked of DynamoDB Local with the caller's own headers (it checks no signature). */
  function schemaOf(table: string, headers: IncomingHttpHeaders): Promise<KeySchema> {
    const cacheKey = `${String(headers.authorization ?? '').match(/Credential=([^/]+)/)?.[1] ?? ''} ${table}`;
    let schema = schemas.get(cacheKey);
    if (!schema) {
      schema = (async () => {
        const answer = await forward({ ...headers, 'x-amz-target': 'DynamoDB_20120810.DescribeTable' }, Buffer.from(JSON.stringify({ TableName: table })));
        const description = JSON.parse(answer.body.toString()).Table as Body | undefined;
        if (!description) throw new Error(`cannot describe ${table}`);
        const hashOf = (keys: Body[]) => keys.find((k) => k.KeyType === 'HASH')?.AttributeName as string;
        return {
          hash: hashOf(description.KeySchema),
          range: description.KeySchema.find((k: Body) => k.KeyType === 'RANGE')?.AttributeName,
          indexes: new Map(
            [...(description.GlobalSecondaryIndexes ?? []), ...(description.LocalSecondaryIndexes ?? [])].map((index: Body) => [index.IndexName, hashOf(index.KeySchema)]),
          ),
          arn: description.TableArn ?? `arn:aws:dynamodb:local:000000000000:table/${table}`,
        };
      })();
      schemas.set(cacheKey, schema);
      schema.catch(() => schemas.delete(cacheKey));
    }
    return schema;
  }

  /** Which of DynamoDB Local's databases a request is for: its access key id. */
  const databaseOf = (headers: IncomingHttpHeaders) => String(headers.authorization ?? '').match(/Credential=([^/]+)/)?.[1] ?? '';

  /** An item's identity: table and key attributes. */
  const itemId = (table: string, schema: KeySchema, key: Item) =>
    JSON.stringify([table, key[schema.hash], schema.range ? key[schema.range] : null]);
  const partitionOf = (table: string, schema: KeySchema, key: Item, index?: string) =>
    JSON.stringify([index ? `${table}/index/${index}` : table, key[index ? schema.indexes.get(index)! : schema.hash]]);

  function send(res: ServerResponse, error: AwsError): void {
    const body = JSON.stringify(error.body);
    res.writeHead(error.status, {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': Buffer.byteLength(body),
      'x-amzn-requestid': `aws-like-${stats.requests}`,
    });
    res.end(body);
  }

  function pass(res: ServerResponse, answer: Forwarded): void {
    const headers = { ...answer.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    headers['content-length'] = String(answer.body.length);
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  const parse = (answer: Forwarded): Body | undefined => {
    try {
      return JSON.parse(answer.body.toString()) as Body;
    } catch {
      return undefined;
    }
  };

  /**
   * Holds `keys` as `kind` for `holdFor` ms (and, for a transaction, until a test's gate opens),
   * then answers once DynamoDB Local has too. The hold is a fixed model of how long DynamoDB
   * works on a request, not how long DynamoDB Local takes: that grows with this machine's load
   * (Local runs every request on one engine; DynamoDB does not), and conflicts that came from a
   * busy laptop would make the tests depend on its speed. Local applies requests one at a time,
   * so a request it is still working on after its hold is over is only ordered, never lost.
   */
  async function holding(kind: HolderKind, keys: string[], holdFor: number, request: { op: string; body: Body; raw: Buffer; headers: IncomingHttpHeaders }) {
    const holder = inFlight.claim(kind, keys);
    const work = async () => {
      const answer = await forward(request.headers, request.raw);
      await options.answerDelay?.(request.op, request.body);
      return answer;
    };
    const gate = kind === 'write' ? undefined : options.hold?.(kind === 'transact-write' ? 'TransactWriteItems' : 'TransactGetItems');
    const held = Promise.all([holdFor > 0 ? sleep(holdFor) : undefined, gate]).finally(() => inFlight.release(holder));
    const [answer] = await Promise.all([work(), held]);
    return { answer, touched: holder.touched };
  }

  async function transactWrite(headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const token = typeof body.ClientRequestToken === 'string' ? `${databaseOf(headers)} ${body.ClientRequestToken}` : undefined;
    // A transaction's token moves to the end of the map when it succeeds, so the finished ones
    // are in the order they finished: the oldest first, stopping at the first still kept. Those
    // still in flight (as many as run at once) are passed over, not taken for the end.
    for (const [known, { finishedAt }] of tokens) {
      if (finishedAt === undefined) continue;
      if (clock() - finishedAt <= TOKEN_WINDOW_MS) break;
      tokens.delete(known);
    }
    const earlier = token === undefined ? undefined : tokens.get(token);
    if (earlier && earlier.finishedAt === undefined) {
      stats.transactionsInProgress += 1;
      return send(res, transactionInProgress());
    }
    if (earlier) {
      stats.idempotentResends += 1;
      return pass(res, await forward(headers, raw));
    }
    const actions: Body[] = body.TransactItems ?? [];
    const targets = await Promise.all(
      actions.map(async (action) => {
        const [kind, detail] = Object.entries(action)[0] as [string, Body];
        const schema = await schemaOf(detail.TableName, headers);
        const key: Item = kind === 'Put' ? detail.Item : detail.Key;
        const size = itemSize(kind === 'Put' ? detail.Item : { ...detail.Key, ...(detail.ExpressionAttributeValues ?? {}) });
        return { id: itemId(detail.TableName, schema, key), partition: partitionOf(detail.TableName, schema, key), size };
      }),
    );
    const units = targets.map((t) => writeUnits(t.size, true));
    const reasons: CancellationReason[] = targets.map((t, i) => {
      if (inFlight.heldBy(t.id, BLOCKED_BY['transact-write'])) return { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE };
      if (meter.wouldExceed(t.partition, 'write', units[i]!)) return { Code: 'ThrottlingError', Message: THROTTLING_MESSAGE };
      return { Code: 'None' };
    });
    if (reasons.some((r) => r.Code !== 'None')) return cancel(res, reasons);
    // A transaction consumes its units whether or not its conditions hold.
    targets.forEach((t, i) => meter.consume(t.partition, 'write', units[i]!));
    const entry: { finishedAt?: number } = {};
    if (token !== undefined) tokens.set(token, entry);
    try {
      const { answer } = await holding('transact-write', targets.map((t) => t.id), holdMs, { op: 'TransactWriteItems', body, raw, headers });
      // Only a transaction that was applied has an answer to repeat; a refused one may be sent again.
      if (token !== undefined) tokens.delete(token);
      if (answer.status === 200 && token !== undefined) tokens.set(token, { finishedAt: clock() });
      pass(res, answer);
    } catch (error) {
      if (token !== undefined) tokens.delete(token);
      throw error;
    }
  }

  function cancel(res: ServerResponse, reasons: CancellationReason[]) {
    const conflicts = reasons.filter((r) => r.Code === 'TransactionConflict').length;
    if (conflicts > 0) {
      stats.cancelledTransactions += 1;
      stats.conflictReasons += conflicts;
    } else stats.throttled += 1;
    send(res, transactionCanceled(reasons));
  }

  async function transactGet(headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const targets = await Promise.all(
      (body.TransactItems ?? []).map(async ({ Get: get }: Body) => {
        const schema = await schemaOf(get.TableName, headers);
        return { id: itemId(get.TableName, schema, get.Key), partition: partitionOf(get.TableName, schema, get.Key) };
      }),
    );
    const reasons: CancellationReason[] = targets.map((t) => {
      if (inFlight.heldBy(t.id, BLOCKED_BY['transact-get'])) return { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE };
      if (meter.wouldExceed(t.partition, 'read', 0)) return { Code: 'ThrottlingError', Message: THROTTLING_MESSAGE };
      return { Code: 'None' };
    });
    if (reasons.some((r) => r.Code !== 'None')) return cancel(res, reasons);
    const { answer, touched } = await holding('transact-get', targets.map((t) => t.id), holdMs, { op: 'TransactGetItems', body, raw, headers });
    // A write that began while the read ran cancels it: the read never saw a settled state.
    if (touched.size > 0 && answer.status === 200) {
      return cancel(res, targets.map((t) => (touched.has(t.id) ? { Code: 'TransactionConflict', Message: CONFLICT_MESSAGE } : { Code: 'None' })));
    }
    const responses: Array<{ Item?: Item }> = parse(answer)?.Responses ?? [];
    targets.forEach((t, i) => meter.consume(t.partition, 'read', readUnits(itemSize(responses[i]?.Item), { transactional: true })));
    pass(res, answer);
  }

  async function singleWrite(op: string, headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const schema = await schemaOf(body.TableName, headers);
    const key: Item = op === 'PutItem' ? body.Item : body.Key;
    const id = itemId(body.TableName, schema, key);
    if (inFlight.heldBy(id, BLOCKED_BY.write)) {
      stats.singleItemConflicts += 1;
      return send(res, transactionConflict());
    }
    const partition = partitionOf(body.TableName, schema, key);
    const units = writeUnits(itemSize(op === 'PutItem' ? body.Item : { ...body.Key, ...(body.ExpressionAttributeValues ?? {}) }));
    if (meter.wouldExceed(partition, 'write', units)) {
      stats.throttled += 1;
      return send(res, throttling('TableWriteKeyRangeThroughputExceeded', schema.arn));
    }
    meter.consume(partition, 'write', units);
    const { answer } = await holding('write', [id], writeHoldMs, { op, body, raw, headers });
    pass(res, answer);
  }

  async function batchWrite(headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const ids: string[] = [];
    for (const [table, requests] of Object.entries((body.RequestItems ?? {}) as Record<string, Body[]>)) {
      const schema = await schemaOf(table, headers);
      for (const request of requests) {
        const item: Item = request.PutRequest?.Item ?? request.DeleteRequest?.Key;
        ids.push(itemId(table, schema, item));
        meter.consume(partitionOf(table, schema, item), 'write', writeUnits(itemSize(item)));
      }
    }
    const { answer } = await holding('write', ids, writeHoldMs, { op: 'BatchWriteItem', body, raw, headers });
    pass(res, answer);
  }

  async function read(op: 'GetItem' | 'Query', headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const schema = await schemaOf(body.TableName, headers);
    const partition = op === 'GetItem' ? partitionOf(body.TableName, schema, body.Key) : queryPartition(body, schema);
    if (partition && meter.wouldExceed(partition, 'read', 0)) {
      stats.throttled += 1;
      return send(res, throttling(body.IndexName ? 'IndexReadKeyRangeThroughputExceeded' : 'TableReadKeyRangeThroughputExceeded', schema.arn));
    }
    const answer = await forward(headers, raw);
    if (partition && answer.status === 200) {
      const result = parse(answer);
      const size = op === 'GetItem' ? itemSize(result?.Item) : ((result?.Items ?? []) as Item[]).reduce((sum, item) => sum + itemSize(item), 0);
      meter.consume(partition, 'read', readUnits(size, { consistent: body.ConsistentRead === true }));
    }
    pass(res, answer);
  }

  /**
   * BatchGetItem, metered as DynamoDB bills it: each item returned rounded up to 4 KB on its own
   * (half for eventually consistent reads), on its own partition. When every key's partition is
   * past its ceiling the whole request is throttled, as DynamoDB does when no key can be read; a
   * request that mixes throttled and open partitions is served whole (DynamoDB would hand the
   * throttled keys back as UnprocessedKeys).
   */
  async function batchGet(headers: IncomingHttpHeaders, raw: Buffer, body: Body, res: ServerResponse) {
    const requested = Object.entries((body.RequestItems ?? {}) as Record<string, Body>);
    const partitions: string[] = [];
    for (const [table, request] of requested) {
      const schema = await schemaOf(table, headers);
      for (const key of (request.Keys ?? []) as Item[]) partitions.push(partitionOf(table, schema, key));
    }
    if (partitions.length > 0 && partitions.every((partition) => meter.wouldExceed(partition, 'read', 0))) {
      stats.throttled += 1;
      const [table] = requested[0]!;
      return send(res, throttling('TableReadKeyRangeThroughputExceeded', (await schemaOf(table, headers)).arn));
    }
    const answer = await forward(headers, raw);
    if (answer.status === 200) {
      for (const [table, items] of Object.entries((parse(answer)?.Responses ?? {}) as Record<string, Item[]>)) {
        const schema = await schemaOf(table, headers);
        const consistent = (body.RequestItems?.[table] as Body | undefined)?.ConsistentRead === true;
        for (const item of items) meter.consume(partitionOf(table, schema, item), 'read', readUnits(itemSize(item), { consistent }));
      }
    }
    pass(res, answer);
  }

  /** The tables a request names, for the operations the engine looks into. */
  function tablesOf(op: string, body: Body): string[] {
    if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
      return (body.TransactItems ?? []).map((action: Body) => (Object.values(action)[0] as Body).TableName);
    }
    if (op === 'BatchWriteItem' || op === 'BatchGetItem') return Object.keys(body.RequestItems ?? {});
    if (['PutItem', 'UpdateItem', 'DeleteItem', 'GetItem', 'Query'].includes(op)) return [body.TableName];
    return [];
  }

  /** The partition a Query reads: `<hash key> = :value` in its key condition. */
  function queryPartition(body: Body, schema: KeySchema): string | undefined {
    const hash = body.IndexName ? schema.indexes.get(body.IndexName) : schema.hash;
    const names: Record<string, string> = body.ExpressionAttributeNames ?? {};
    for (const [, name, placeholder] of String(body.KeyConditionExpression ?? '').matchAll(/([#\w.]+)\s*=\s*(:\w+)/g)) {
      if ((names[name!] ?? name) === hash) {
        const value = (body.ExpressionAttributeValues ?? {})[placeholder!] as AttributeValue | undefined;
        if (value) return partitionOf(body.TableName, schema, { [hash!]: value }, body.IndexName);
      }
    }
    return undefined;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    stats.requests += 1;
    const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (options.latencyRate && random() < options.latencyRate) {
      stats.delayed += 1;
      await sleep(options.latencyMs ?? 50);
    }
    if (options.faultRate && random() < options.faultRate) {
      stats.faults += 1;
      return send(res, internalServerError());
    }
    let body: Body;
    try {
      body = JSON.parse(raw.toString() || '{}') as Body;
    } catch {
      return pass(res, await forward(req.headers, raw));
    }
    await options.delay?.(op, body);
    if (options.faultWhen?.(op, body)) {
      stats.faults += 1;
      return send(res, internalServerError());
    }
    try {
      await Promise.all(tablesOf(op, body).map((table) => schemaOf(table, req.headers)));
    } catch {
      // A table DynamoDB Local does not know: it gives its own answer (ResourceNotFoundException).
      return pass(res, await forward(req.headers, raw));
    }
    switch (op) {
      case 'TransactWriteItems':
        return transactWrite(req.headers, raw, body, res);
      case 'TransactGetItems':
        return transactGet(req.headers, raw, body, res);
      case 'PutItem':
      case 'UpdateItem':
      case 'DeleteItem':
        return singleWrite(op, req.headers, raw, body, res);
      case 'BatchWriteItem':
        return batchWrite(req.headers, raw, body, res);
      case 'BatchGetItem':
        return batchGet(req.headers, raw, body, res);
      case 'GetItem':
      case 'Query':
        return read(op, req.headers, raw, body, res);
      default:
        return pass(res, await forward(req.headers, raw));
    }
  }

  const server = createServer((req, res) => {
    answering += 1;
    stats.mostAtOnce = Math.max(stats.mostAtOnce, answering);
    res.once('close', () => (answering -= 1));
    handle(req, res).catch((error: unknown) => {
      // Only a failure to reach DynamoDB Local gets here (a table the engine cannot describe is
      // forwarded as is): the engine's own InternalServerError, naming the cause.
      if (!res.headersSent) send(res, { status: 500, body: { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: `aws-like engine: ${String(error)}` } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats: () => ({ ...stats, readUnits: meter.total.read, writeUnits: meter.total.write }),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
