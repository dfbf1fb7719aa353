import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { DynamoStoredSnapshotStore } from '../../lib/client/dynamo-stored-snapshot.js';
import { REWRITE_POLICY } from '../../lib/client/stored-snapshot.js';
import type { Feature } from '../../lib/features/model.js';
import { createDocumentClient } from '../../lib/store/document-client.js';
import { keys } from '../../lib/store/table-design.js';
import type { Caller } from '../../lib/tokens/model.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { flag, flagName, tableWith } from '../support/flag-tables.js';
import { testConfig, clientServicesOn, type ClientServices } from '../support/services.js';

// ADR 20: a cold SDK container starts from the stored snapshot and the change log since, instead
// of reading every feature (issue 14: 16,086 read units and 9-10 s of CPU at 50,000 flags).
// Read units are counted by the AWS-like engine from item sizes, as DynamoDB bills them.
let engine: AwsLikeEngine;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
});

afterAll(async () => {
  await engine?.stop();
});

const caller: Caller = { tokenName: 'sdk', type: 'client', environment: 'production', projects: ['*'] };
const HOUR = 60 * 60 * 1000;

async function world(flags: number) {
  const tableName = await tableWith(flags);
  const config = testConfig({ TABLE_NAME: tableName, DYNAMODB_ENDPOINT: engine.endpoint, REVISION_CHECK_INTERVAL_MS: '0' });
  const admin = clientServicesOn(config);
  const writer = clientServicesOn(config);
  // The seeded flags bypassed the revision; a first change gives every reading shards to resume from.
  await admin.featureStore.commit({ writes: [{ before: undefined, after: flag('warm-up') }] });
  const edit = async (name: string, change: (feature: Feature) => Feature | undefined) => {
    const before = (await admin.featureStore.get(name)) as Feature;
    expect(await admin.featureStore.commit({ writes: [{ before, after: change(before) }] })).toEqual({ ok: true });
  };
  /** A cold container: one with the stored snapshot, or one that can only read everything. */
  const cold = (stored = true): ClientServices['clientFeatures'] => {
    const services = clientServicesOn(config);
    if (stored) return services.clientFeatures;
    return new ClientFeatureService(new FeatureSnapshots(services.featureStore, services.segmentStore, services.clock, services.revisions), services.clock);
  };
  return { tableName, admin, writer, edit, cold };
}

/** The first poll's JSON text and the read units it consumed. */
async function firstPoll(service: ClientServices['clientFeatures']): Promise<{ json: string; readUnits: number }> {
  const units = engine.stats().readUnits;
  const answer = await service.features(caller, {}, undefined);
  if (!answer.modified) throw new Error('expected a payload');
  return { json: answer.payload.json, readUnits: engine.stats().readUnits - units };
}

describe('a cold SDK container with a stored snapshot', () => {
  it('serves what a whole read serves, after edits, a delete and a create since the snapshot, for a tenth of the read units', { timeout: 300_000 }, async () => {
    const { writer, edit, cold } = await world(3_000);
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');
    await edit(flagName(7), (f) => ({ ...f, description: 'changed after the snapshot', version: f.version + 1 }));
    await edit(flagName(1), (f) => ({ ...f, archived: true, version: f.version + 1 }));
    await edit(flagName(1), () => undefined);
    await edit('warm-up', (f) => ({ ...f, stale: true, version: f.version + 1 }));

    const fromStored = await firstPoll(cold());
    const whole = await firstPoll(cold(false));
    console.log(`first poll of a cold container at 3,000 flags: ${fromStored.readUnits} read units from the stored snapshot, ${whole.readUnits} reading every feature`);

    expect(fromStored.json).toBe(whole.json);
    const served = JSON.parse(fromStored.json) as { features: Array<{ name: string; description: string }> };
    expect(served.features).toHaveLength(3_000);
    expect(served.features.find((f) => f.name === flagName(7))?.description).toBe('changed after the snapshot');
    expect(served.features.some((f) => f.name === flagName(1))).toBe(false);
    expect(fromStored.readUnits).toBeLessThan(whole.readUnits / 10);
  });

  it('reads every feature when the stored snapshot is of another format or has lost a page', async () => {
    const { tableName, writer, edit, cold } = await world(20);
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');
    await edit(flagName(3), (f) => ({ ...f, description: 'after', version: f.version + 1 }));
    const expected = (await firstPoll(cold(false))).json;
    const db = createDocumentClient({ region: 'local', endpoint: inject('dynamodbLocal').endpoint });
    const stored = new DynamoStoredSnapshotStore(db, tableName);
    const head = (await stored.head())!;

    await db.send(new DeleteCommand({ TableName: tableName, Key: keys.sdkSnapshotPage(head.id, 0) }));
    expect((await firstPoll(cold())).json).toBe(expected);

    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.sdkSnapshotHead(), id: head.id, format: 999, revision: head.revision, pages: 1, bytes: 1, writtenAt: head.writtenAt } }));
    expect((await firstPoll(cold())).json).toBe(expected);
    db.destroy();
  });
});

describe('the stored snapshot writer', () => {
  it('rewrites only when enough changed, when it is old and something changed, or once a day', { timeout: 120_000 }, async () => {
    const { writer, edit } = await world(REWRITE_POLICY.changedFeatures + 5);
    const at = (hours: number) => new Date(Date.now() + hours * HOUR);
    expect(await writer.clientFeatures.storeSnapshot(at(0))).toBe('written');
    expect(await writer.clientFeatures.storeSnapshot(at(0))).toBe('recent');

    await edit(flagName(0), (f) => ({ ...f, description: 'one change', version: f.version + 1 }));
    expect(await writer.clientFeatures.storeSnapshot(at(1))).toBe('recent');
    expect(await writer.clientFeatures.storeSnapshot(at(7))).toBe('written');

    for (let i = 0; i < REWRITE_POLICY.changedFeatures; i += 1) {
      await edit(flagName(i), (f) => ({ ...f, description: `change ${i}`, version: f.version + 1 }));
    }
    expect(await writer.clientFeatures.storeSnapshot(at(8))).toBe('written');

    // Nothing changed: rewritten only once a day, before its pages' time to live passes.
    expect(await writer.clientFeatures.storeSnapshot(at(20))).toBe('recent');
    expect(await writer.clientFeatures.storeSnapshot(at(33))).toBe('written');
    // A writer that lost the race to a newer head leaves it.
    expect(await clientServicesOn(writer.config).clientFeatures.storeSnapshot(at(1))).toBe('superseded');
  });
});
