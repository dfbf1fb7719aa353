import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import type { Feature } from '../../lib/features/model.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import type { Caller } from '../../lib/tokens/model.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { testConfig, unique, clientServicesOn } from '../support/services.js';
import { flag, tableWith } from '../support/flag-tables.js';

// What one change costs a warm SDK container (issue 14, deliverable 1; ADR 16): the read units it
// consumes on the next poll, counted by the AWS-like engine from item sizes as DynamoDB bills
// them. Before the change log, the poll after any change read every feature again: about 2,600
// read units at 10,000 flags.
let engine: AwsLikeEngine;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
});

afterAll(async () => {
  await engine?.stop();
});

const caller: Caller = { tokenName: 'sdk', type: 'client', environment: 'production', projects: ['*'] };

/** Read units a warm container spends on the first poll after one feature changed, and what it served. */
async function costOfOneChange(flags: number): Promise<{ readUnits: number; served: unknown }> {
  const tableName = await tableWith(flags);
  const config = testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, REVISION_CHECK_INTERVAL_MS: '0' });
  const sdk = clientServicesOn(config);
  const admin = clientServicesOn(config);
  // The first poll reads everything, as any cold container does; a first change gives the
  // container a reading of the revision shards to resume from.
  await admin.featureStore.commit({ writes: [{ before: undefined, after: flag('warm-up') }] });
  await sdk.clientFeatures.features(caller, {}, undefined);

  const before = (await admin.featureStore.get('flag-000007')) as Feature;
  const after = { ...before, description: 'changed', version: before.version + 1 };
  expect(await admin.featureStore.commit({ writes: [{ before, after }] })).toEqual({ ok: true });

  const units = engine.stats().readUnits;
  const answer = await sdk.clientFeatures.features(caller, {}, undefined);
  const readUnits = engine.stats().readUnits - units;
  if (!answer.modified) throw new Error('expected the changed payload');
  const served = (JSON.parse(answer.payload.json) as { features: Array<{ name: string; description: string }> }).features;
  return { readUnits, served: { count: served.length, changed: served.find((f) => f.name === 'flag-000007')?.description } };
}

describe('the first poll of a warm SDK container after one feature changed', () => {
  it('reads as much at 10,000 flags as at 1,000, and serves the change', { timeout: 600_000 }, async () => {
    const small = await costOfOneChange(1_000);
    const large = await costOfOneChange(10_000);
    console.log(`read units after one change: ${small.readUnits} at 1,000 flags, ${large.readUnits} at 10,000`);

    expect(small.served).toEqual({ count: 1_001, changed: 'changed' });
    expect(large.served).toEqual({ count: 10_001, changed: 'changed' });
    expect(large.readUnits).toBe(small.readUnits);
    expect(large.readUnits).toBeLessThanOrEqual(10);
  });
});

describe('a warm SDK container following the change log', () => {
  async function warmContainer(flags: number) {
    const tableName = await tableWith(flags);
    const config = testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, REVISION_CHECK_INTERVAL_MS: '0' });
    const sdk = clientServicesOn(config);
    const admin = clientServicesOn(config);
    await admin.featureStore.commit({ writes: [{ before: undefined, after: flag('warm-up') }] });
    const served = async () => {
      const answer = await sdk.clientFeatures.features(caller, {}, undefined);
      if (!answer.modified) throw new Error('expected a payload');
      return JSON.parse(answer.payload.json) as { features: Array<{ name: string; strategies: Array<{ segments?: number[] }> }>; segments: Array<{ id: number; name: string }> };
    };
    await served();
    return { admin, served, tableName };
  }

  it('drops a feature deleted for good and adds a created one', async () => {
    const { admin, served } = await warmContainer(5);
    const gone = (await admin.featureStore.get('flag-000001')) as Feature;
    const archived = { ...gone, archived: true, version: gone.version + 1 };
    await admin.featureStore.commit({ writes: [{ before: gone, after: archived }] });
    await admin.featureStore.commit({ writes: [{ before: archived, after: undefined }] });
    await admin.featureStore.commit({ writes: [{ before: undefined, after: flag('flag-new') }] });

    expect((await served()).features.map((f) => f.name)).toEqual([
      'flag-000000', 'flag-000002', 'flag-000003', 'flag-000004', 'flag-new', 'warm-up',
    ]);
  });

  it('serves a changed segment', async () => {
    const { admin, served } = await warmContainer(1);
    // The container's table is its own (tableWith), so a fixed id meets no other segment.
    const segment = { id: 4_000_001, name: unique('seg'), description: null, project: null,
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'], caseInsensitive: false, inverted: false }],
      createdAt: new Date().toISOString(), createdBy: 'test' };
    await admin.segmentStore.insert(segment as never);
    const user = (await admin.featureStore.get('flag-000000')) as Feature;
    const strategy = { ...user.environments.production!.strategies[0]!, segments: [segment.id] };
    await admin.featureStore.commit({ writes: [{ before: user, after: {
      ...user, version: user.version + 1,
      environments: { production: { ...user.environments.production!, strategies: [strategy] } },
    } }] });
    // SDKs without the segments capability get a segment's constraints inlined in the strategy.
    const userIds = async () => ((await served()).features[0] as unknown as { strategies: Array<{ constraints: Array<{ contextName: string; values: string[] }> }> })
      .strategies[0]?.constraints.find((c) => c.contextName === 'userId')?.values;
    expect(await userIds()).toEqual(['a']);

    await admin.segmentStore.replace(segment as never, { ...segment, constraints: [{ ...segment.constraints[0]!, values: ['b'] }] } as never);

    expect(await userIds()).toEqual(['b']);
  });

  it('reads everything again when the log cannot tell what changed (a shard moved without an entry)', async () => {
    const { admin, served, tableName } = await warmContainer(3);
    // What a revision moved before the change log existed looks like: the shard moves, no entry.
    const local = createDocumentClient({ region: 'local', endpoint: inject('dynamodbLocal').endpoint });
    const before = (await admin.featureStore.get('flag-000002')) as Feature;
    await local.send(new BatchWriteCommand({ RequestItems: { [tableName]: [
      { PutRequest: { Item: { ...keys.feature('flag-000002'), ...before, description: 'behind the log', version: before.version + 1 } } },
      { PutRequest: { Item: { ...keys.revisionShard(31), revision: 1_000 } } },
    ] } }));
    local.destroy();

    const features = (await served()).features as unknown as Array<{ name: string; description: string }>;
    expect(features.find((f) => f.name === 'flag-000002')?.description).toBe('behind the log');
  });
});
