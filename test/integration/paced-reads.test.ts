import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { prepareLocalTable } from '../../lib/store/create-table.js';
import { queryCollection } from '../../lib/store/query.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { unique } from '../support/services.js';

// A collection read larger than its partition's read throughput in one second (every feature of
// a large table, read by a cold SDK container) is paced, not failed. The engine's ceiling is
// lowered to 300 read units a second so that 3 MB (three 1 MB pages of 256 units each) passes
// it: the third page is throttled until the next second. The meter's clock stands still until the
// first throttle (so how fast this machine reads the pages cannot spread them over two seconds and
// dodge the ceiling), then runs on the wall clock so that the pacing's waits reach a new second.
let engine: AwsLikeEngine;
const table = unique('paced');

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({
    target: inject('dynamodbLocal').endpoint, limits: { read: 300, write: 100_000 },
    now: () => (engine?.stats().throttled ? Date.now() : 0),
  });
  const local = createDocumentClient({ region: 'local', endpoint: inject('dynamodbLocal').endpoint });
  await prepareLocalTable({ region: 'local', endpoint: inject('dynamodbLocal').endpoint }, table);
  const items = Array.from({ length: 12 }, (_, i) => ({ pk: 'BIG', sk: `ITEM#${String(i).padStart(2, '0')}`, filler: 'x'.repeat(300_000) }));
  for (let start = 0; start < items.length; start += 4) {
    await local.send(new BatchWriteCommand({ RequestItems: { [table]: items.slice(start, start + 4).map((Item) => ({ PutRequest: { Item } })) } }));
  }
  local.destroy();
});

afterAll(async () => {
  await engine?.stop();
});

describe('a collection read past its partition key\'s read throughput', () => {
  it('is paced through the throttles and answers every item', async () => {
    const db = createDocumentClient({ region: 'local', endpoint: engine.endpoint });
    const items = await queryCollection(db, table, { pk: 'BIG', skPrefix: 'ITEM#' });

    expect(items.map((item) => item.sk)).toHaveLength(12);
    expect(engine.stats().throttled).toBeGreaterThan(0);
    db.destroy();
  });
});
