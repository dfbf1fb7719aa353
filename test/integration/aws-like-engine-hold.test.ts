import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CreateTableCommand, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand, type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { unique } from '../support/services.js';

// How long a request holds its items is the engine's model of DynamoDB, not the time DynamoDB Local
// takes: Local slows down with this machine's load, and conflicts born of a busy laptop would make
// every concurrency test depend on its speed. A DynamoDB Local made slow on purpose (a proxy that
// keeps the first transaction until the test lets it go) shows it, without timing anything.
const table = unique('hold');
let slowLocal: Server;
let engine: AwsLikeEngine;
let releaseFirst: () => void = () => undefined;
let firstArrived: Promise<void>;

beforeAll(async () => {
  const local = new URL(inject('dynamodbLocal').endpoint);
  let arrived: () => void = () => undefined;
  firstArrived = new Promise((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (releaseFirst = resolve));
  let kept = false;
  slowLocal = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      if (!kept && String(req.headers['x-amz-target']).endsWith('.TransactWriteItems')) {
        kept = true;
        arrived();
        await released;
      }
      const onward = request({ host: local.hostname, port: local.port, path: '/', method: 'POST', headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      });
      onward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => slowLocal.listen(0, '127.0.0.1', resolve));
  const { port } = slowLocal.address() as AddressInfo;
  engine = await startAwsLikeDynamoDb({ target: `http://127.0.0.1:${port}`, transactionHoldMs: 0 });
  await client(inject('dynamodbLocal').endpoint).send(new CreateTableCommand({
    TableName: table, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
  }));
});

afterAll(async () => {
  releaseFirst();
  await engine?.stop();
  await new Promise((resolve) => slowLocal?.close(resolve));
});

function client(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ region: 'local', endpoint, maxAttempts: 1, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

const key = (pk: string) => ({ pk: { S: pk }, sk: { S: 'item' } });
const put = (pk: string, value: string): TransactWriteItem => ({
  Put: { TableName: table, Item: { ...key(pk), value: { S: value } } },
});

describe('a transaction DynamoDB Local is slow to apply', () => {
  // Both were in flight together (neither client had its answer), so either order is one DynamoDB could give.
  it('holds its items only for the modelled time: a later transaction on the same item commits too, not cancelled', async () => {
    const db = client(engine.endpoint);
    const pk = unique('item');

    const first = db.send(new TransactWriteItemsCommand({ TransactItems: [put(pk, 'first')] }));
    await firstArrived;
    const second = db.send(new TransactWriteItemsCommand({ TransactItems: [put(pk, 'second')] }));
    releaseFirst();
    await Promise.all([first, second]);

    expect(engine.stats()).toMatchObject({ cancelledTransactions: 0 });
    const stored = await db.send(new GetItemCommand({ TableName: table, Key: key(pk), ConsistentRead: true }));
    expect(['first', 'second']).toContain(stored.Item?.value?.S);
  });
});
