import { describe, expect, it } from 'vitest';
import { deltaEvents, deltaRevisionNamedIn, type DeltaSource } from '../../lib/client/delta.js';
import type { ClientQuery } from '../../lib/client/query.js';
import { changesSince, factsOf, type SnapshotStep, type VersionedSnapshot } from '../../lib/client/snapshot.js';
import type { Feature } from '../../lib/features/model.js';

const feature = (name: string, overrides: Partial<Feature> = {}): Feature => ({
  name, project: 'default', type: 'release', description: null, impressionData: false, stale: false,
  archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z',
  environments: { development: { enabled: true, strategies: [], variants: [] } },
  tags: [], dependencies: [], children: [], version: 1,
  ...overrides,
});

const query = (overrides: Partial<ClientQuery> = {}): ClientQuery => ({ environment: 'development', inlineSegmentConstraints: false, ...overrides });

const step = (from: number, fromRevision: number, names: string[], before: Feature[] = []): SnapshotStep => ({
  from, to: from + 1, fromRevision, names, segments: false,
  before: new Map(before.map((f) => [f.name, factsOf(f)])), segmentsBefore: undefined,
});

/** Snapshot 3 at revision 30, reached from snapshot 1 (revision 10) through snapshot 2 (revision 20). */
function snapshotOf(features: Feature[], steps: SnapshotStep[]): VersionedSnapshot & DeltaSource {
  return {
    features, segmentsById: new Map(), version: 3, revision: 30, shards: new Map([['SHARD#00', 30]]), steps,
    index: new Map(features.map((f) => [f.name, f])),
  };
}

describe('the revision an SDK names in If-None-Match', () => {
  it('is the number inside the quotes, as Unleash reads it; anything else names none', () => {
    expect(deltaRevisionNamedIn('"42"')).toBe(42);
    expect(deltaRevisionNamedIn('42')).toBe(42);
    expect(deltaRevisionNamedIn(undefined)).toBeUndefined();
    expect(deltaRevisionNamedIn('"abcd1234:42"')).toBeUndefined();
    expect(deltaRevisionNamedIn('W/"42"')).toBeUndefined();
  });
});

describe('the changes since an SDK’s revision', () => {
  const steps = [step(1, 10, ['a']), step(2, 20, ['b'])];

  it('start at a snapshot of that revision (exact), or inside the step that covers it', () => {
    const snapshot = snapshotOf([], steps);

    expect(changesSince(snapshot, 20)).toMatchObject({ names: new Set(['b']), exact: true });
    expect(changesSince(snapshot, 10)).toMatchObject({ names: new Set(['a', 'b']), exact: true });
    expect(changesSince(snapshot, 15)).toMatchObject({ names: new Set(['a', 'b']), exact: false });
  });

  it('are unknown before the first remembered step', () => {
    expect(changesSince(snapshotOf([], steps), 5)).toBeUndefined();
    expect(changesSince(snapshotOf([], []), 20)).toBeUndefined();
  });
});

describe('delta events', () => {
  it('remove a feature only from a scope whose projects held it', () => {
    const gone = feature('gone', { project: 'other', archived: true });
    const snapshot = snapshotOf([gone], [step(2, 20, ['gone'], [feature('gone', { project: 'other' })])]);
    const changes = changesSince(snapshot, 20)!;

    expect(deltaEvents(snapshot, changes, query())).toEqual([{ type: 'feature-removed', eventId: 30, featureName: 'gone', project: 'other' }]);
    expect(deltaEvents(snapshot, changes, query({ projects: ['default'] }))).toEqual([]);
  });

  it('send everything when a feature this container never saw is gone: the SDK may hold it', () => {
    // Created and deleted between two snapshots of this container: it may have been in the scope,
    // inside a step or even at one (another container's snapshot at the same revision may have
    // held it, as a snapshot may hold data newer than its revision).
    const snapshot = snapshotOf([], [step(2, 20, ['fleeting'])]);

    expect(deltaEvents(snapshot, changesSince(snapshot, 25)!, query({ projects: ['default'] }))).toBeUndefined();
    expect(deltaEvents(snapshot, changesSince(snapshot, 20)!, query({ projects: ['default'] }))).toBeUndefined();
    expect(deltaEvents(snapshot, changesSince(snapshot, 20)!, query())).toBeUndefined();
  });

  it('send everything to SDKs that inline segment constraints when a segment changed', () => {
    const snapshot = snapshotOf([], [{ ...step(2, 20, []), segments: true, segmentsBefore: new Map() }]);

    expect(deltaEvents(snapshot, changesSince(snapshot, 20)!, query({ inlineSegmentConstraints: true }))).toBeUndefined();
    expect(deltaEvents(snapshot, changesSince(snapshot, 20)!, query())).toEqual([]);
  });
});
