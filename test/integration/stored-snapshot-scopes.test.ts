import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { DynamoStoredSnapshotStore } from '../../lib/client/dynamo-stored-snapshot.js';
import type { StoredSnapshotStore } from '../../lib/client/stored-snapshot.js';
import type { Feature } from '../../lib/features/model.js';
import type { Segment } from '../../lib/segments/model.js';
import type { Caller } from '../../lib/tokens/model.js';
import { startAwsLikeDynamoDb, type AwsLikeEngine } from '../../local/aws-like-dynamodb/engine.js';
import { flag, flagName, tableWith } from '../support/flag-tables.js';
import { testConfig, clientServicesOn } from '../support/services.js';

// ADR 25: beside the stored snapshot, the writer stores each environment's answer for the scope
// most SDKs poll (every project, segments listed). A cold container serves it without decoding
// the snapshot, and follows changes since it by reading only the features the change log names.
let engine: AwsLikeEngine;

beforeAll(async () => {
  engine = await startAwsLikeDynamoDb({ target: inject('dynamodbLocal').endpoint });
});

afterAll(async () => {
  await engine?.stop();
});

const caller: Caller = { tokenName: 'sdk', type: 'client', environment: 'production', projects: ['*'] };
/** What current SDKs send: the segments come as a list, so this is the stored scope. */
const modernSdk = { clientSpec: '5.2.0' };

const segment = (id: number, name: string): Segment => ({
  id, name, description: null, project: null, createdAt: '2026-11-01T00:00:00.000Z', createdBy: null,
  constraints: [{ contextName: 'region', operator: 'IN', values: [name], caseInsensitive: false, inverted: false }],
});

/** `feature` with its production strategy referring to `segments`. */
const withSegments = (feature: Feature, segments: number[]): Feature => {
  const production = feature.environments.production as Feature['environments'][string];
  return {
    ...feature, version: feature.version + 1,
    environments: { ...feature.environments, production: { ...production, strategies: production.strategies.map((strategy) => ({ ...strategy, segments })) } },
  };
};

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
  /**
   * A cold container that counts what it reads of the stored snapshot: `snapshotPages` counts
   * reads of the whole snapshot's pages (decoding every feature), `wholeReads` reads of every feature.
   */
  const cold = (stored = true) => {
    const services = clientServicesOn(config);
    const counts = { snapshotPages: 0, wholeReads: 0 };
    const real = new DynamoStoredSnapshotStore(services.store.db, tableName);
    const counted: StoredSnapshotStore = {
      head: () => real.head(),
      pages: (head) => ((counts.snapshotPages += 1), real.pages(head)),
      scopePages: (head, environment) => real.scopePages(head, environment),
      save: (head, pages) => real.save(head, pages),
    };
    const features = {
      listAll: () => ((counts.wholeReads += 1), services.featureStore.listAll()),
      getMany: (names: string[]) => services.featureStore.getMany(names),
    };
    const snapshots = new FeatureSnapshots(features, services.segmentStore, services.clock, services.revisions, stored ? counted : undefined);
    return { service: new ClientFeatureService(snapshots, services.clock), counts };
  };
  return { admin, writer, edit, cold };
}

/** The first poll's gzip bytes, its JSON text and the read units it consumed. */
async function poll(service: ClientFeatureService, request: { clientSpec?: string } = modernSdk) {
  const units = engine.stats().readUnits;
  const answer = await service.features(caller, request, undefined);
  if (!answer.modified) throw new Error('expected a payload');
  return { gzip: answer.payload.gzipBase64, json: answer.payload.json, readUnits: engine.stats().readUnits - units };
}

describe('a cold SDK container with stored scopes', () => {
  it('serves the stored answer, byte for byte what a whole read builds, without decoding the snapshot', { timeout: 300_000 }, async () => {
    const { writer, cold } = await world(3_000);
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');

    const fromScope = cold();
    const first = await poll(fromScope.service);
    const whole = await poll(cold(false).service);
    console.log(`first poll of a cold container at 3,000 flags: ${first.readUnits} read units from the stored scope, ${whole.readUnits} reading every feature`);

    expect(first.gzip === whole.gzip).toBe(true);
    expect(JSON.parse(first.json).features).toHaveLength(3_001);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
    expect(first.readUnits).toBeLessThan(whole.readUnits / 20);

    // Narrower scopes are derived from the stored answer: segments inlined, one project, a name prefix, and E18's one feature.
    const inlined = await poll(fromScope.service, {});
    expect(inlined.json).toBe((await poll(cold(false).service, {})).json);
    const projectCaller: Caller = { ...caller, projects: ['default'] };
    const narrower = async (service: ClientFeatureService) => {
      const scoped = await service.features(projectCaller, { ...modernSdk, namePrefix: flagName(1).slice(0, -2) }, undefined);
      const one = await service.feature(caller, {}, flagName(42));
      const missing = await service.feature(projectCaller, modernSdk, 'never-made').catch((error: unknown) => String(error));
      return JSON.stringify([scoped.modified && scoped.payload.json, one, missing]);
    };
    const derived = await narrower(fromScope.service);
    expect(derived).toBe(await narrower(cold(false).service));
    expect(JSON.parse(derived)[2]).toMatch(/Could not find feature toggle never-made/);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });

    // A tag filter too, from the tags the stored answer records.
    const tagged = { ...modernSdk, tags: [{ type: 'simple', value: 'nothing-tagged' }] };
    const byTag = await fromScope.service.features(caller, tagged, undefined);
    const byTagWhole = await cold(false).service.features(caller, tagged, undefined);
    expect(byTag.modified && byTag.payload.json).toBe(byTagWhole.modified && byTagWhole.payload.json);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });

    // The delta API's events since an older revision need what the stored snapshot held of each changed feature: decoded, as before.
    await writer.featureStore.commit({ writes: [{ before: undefined, after: flag('made-after-the-snapshot') }] });
    const events = await fromScope.service.delta(caller, modernSdk, '"1"');
    const eventsWhole = await cold(false).service.delta(caller, modernSdk, '"1"');
    // The container that read the stored snapshot (at revision 1) tells the change as an event; one that read every feature has no step to tell it from, so it hydrates.
    if (!events.modified || !('events' in events) || !eventsWhole.modified) throw new Error('expected events and a hydration');
    expect(JSON.parse(events.events).events.map((event: { type: string; feature?: { name: string } }) => [event.type, event.feature?.name])).toEqual([['feature-updated', 'made-after-the-snapshot']]);
    expect(events.etag).toBe(eventsWhole.etag);
    expect(fromScope.counts).toEqual({ snapshotPages: 1, wholeReads: 0 });
  });

  it('splices the features changed since the stored answer, and keeps the segment list as a whole read has it', { timeout: 300_000 }, async () => {
    const { admin, writer, edit, cold } = await world(400);
    const segments = admin.segmentStore;
    expect(await segments.insert(segment(1, 'kept'))).toBe('done');
    expect(await segments.insert(segment(2, 'dropped'))).toBe('done');
    await edit(flagName(10), (f) => withSegments(f, [1]));
    await edit(flagName(20), (f) => withSegments(f, [2]));
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');

    await edit(flagName(10), (f) => withSegments(f, []));
    await edit(flagName(11), (f) => withSegments(f, [1]));
    await edit(flagName(20), (f) => withSegments(f, []));
    await edit(flagName(7), (f) => ({ ...f, description: 'changed after the snapshot', version: f.version + 1 }));
    await edit(flagName(1), (f) => ({ ...f, archived: true, version: f.version + 1 }));
    await edit(flagName(2), () => undefined);
    await admin.featureStore.commit({ writes: [{ before: undefined, after: flag('zz-made-after-the-snapshot') }] });

    const fromScope = cold();
    const first = await poll(fromScope.service);
    const whole = await poll(cold(false).service);
    // The touched chunks were compressed again, so the bytes differ from a whole build's; the text does not.
    expect(first.json === whole.json).toBe(true);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
    const served = JSON.parse(first.json) as { features: { name: string; description: string }[]; segments: { name: string }[] };
    expect(served.segments.map((s) => s.name)).toEqual(['kept']);
    expect(served.features.find((f) => f.name === flagName(7))?.description).toBe('changed after the snapshot');
    expect(served.features.some((f) => f.name === flagName(1) || f.name === flagName(2))).toBe(false);
    expect(served.features.at(-1)?.name).toBe('zz-made-after-the-snapshot');

    // The metrics path's name check answers from the same stored answer, still decoding nothing.
    const asked = [flagName(0), flagName(1), flagName(2), flagName(7), 'zz-made-after-the-snapshot', 'never-made'];
    const namesServed = await fromScope.service.servedNames(caller, { environment: 'production' }, asked);
    expect([...namesServed]).toEqual([...(await cold(false).service.servedNames(caller, { environment: 'production' }, asked))]);
    expect([...namesServed]).toEqual([flagName(0), flagName(7), 'zz-made-after-the-snapshot']);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });

    // Later changes are spliced in the same way: the snapshot is still not decoded.
    await edit(flagName(8), (f) => ({ ...f, stale: true, version: f.version + 1 }));
    await edit(flagName(11), (f) => withSegments(f, []));
    const next = await poll(fromScope.service);
    const wholeNext = await poll(cold(false).service);
    expect(next.json === wholeNext.json).toBe(true);
    expect((JSON.parse(next.json) as { segments: unknown[] }).segments).toEqual([]);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });

    // A segment change lists the segments read again, still without decoding the snapshot.
    const kept = (await admin.segmentStore.get(1)) as Segment;
    expect(await admin.segmentStore.replace(kept, { ...kept, name: 'renamed' })).toBe('done');
    await edit(flagName(9), (f) => withSegments(f, [1]));
    const afterSegment = await poll(fromScope.service);
    expect(afterSegment.json === (await poll(cold(false).service)).json).toBe(true);
    expect((JSON.parse(afterSegment.json) as { segments: { name: string }[] }).segments.map((s) => s.name)).toEqual(['renamed']);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
  });

  it('reads the segments again when one changed since the stored answer, and derives an answer inlining them from it', { timeout: 300_000 }, async () => {
    const { admin, writer, edit, cold } = await world(50);
    expect(await admin.segmentStore.insert(segment(1, 'before'))).toBe('done');
    await edit(flagName(3), (f) => withSegments(f, [1]));
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');
    const before = (await admin.segmentStore.get(1)) as Segment;
    expect(await admin.segmentStore.replace(before, { ...before, constraints: [] })).toBe('done');

    const fromScope = cold();
    const first = await poll(fromScope.service);
    expect(first.gzip === (await poll(cold(false).service)).gzip).toBe(true);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
    // A new container whose SDK inlines segments: the stored answer's text holds the segment's old constraints nowhere, it is derived too.
    const inlining = cold();
    expect((await poll(inlining.service, {})).json).toBe((await poll(cold(false).service, {})).json);
    expect(inlining.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
  });

  it('answers a delta hydration from the stored answer', { timeout: 300_000 }, async () => {
    const { writer, cold } = await world(200);
    expect(await writer.clientFeatures.storeSnapshot()).toBe('written');
    const fromScope = cold();
    const hydration = await fromScope.service.delta(caller, modernSdk, undefined);
    const whole = await cold(false).service.delta(caller, modernSdk, undefined);
    if (!('payload' in hydration) || !('payload' in whole)) throw new Error('expected hydrations');
    expect(hydration.payload.gzipBase64 === whole.payload.gzipBase64).toBe(true);
    expect(hydration.etag).toBe(whole.etag);
    expect(fromScope.counts).toEqual({ snapshotPages: 0, wholeReads: 0 });
  });
});
