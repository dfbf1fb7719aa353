import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { ClientFeatureService } from '../../lib/client/features-service.js';
import { FeatureSnapshots, type ChangeLog } from '../../lib/client/feature-snapshots.js';
import type { Feature } from '../../lib/features/model.js';
import type { ChangeLogEntry, RevisionState, SdkChange } from '../../lib/revision.js';
import type { Segment } from '../../lib/segments/model.js';
import type { Caller } from '../../lib/tokens/model.js';

// The payload a warm container builds from its previous one (only the chunks of changed features
// compressed again) must be, byte for byte, the payload a cold container builds whole.

function flag(name: string, project = 'default', segments: number[] = []): Feature {
  return {
    name, project, type: 'release', description: `${name} `.repeat(40), impressionData: false, stale: false,
    archived: false, archivedAt: null, createdAt: '2026-01-01T00:00:00.000Z', tags: [], dependencies: [], children: [], version: 1,
    environments: {
      production: {
        enabled: true, variants: [],
        strategies: [{ id: `${name}-s`, name: 'default', title: null, disabled: false, sortOrder: 0, constraints: [], parameters: {}, variants: [], segments }],
      },
    },
  } as unknown as Feature;
}

const segment = (id: number, value: string): Segment =>
  ({ id, name: `segment-${id}`, description: null, project: null, createdAt: '', createdBy: 'test',
    constraints: [{ contextName: 'userId', operator: 'IN', values: [value], caseInsensitive: false, inverted: false }] }) as unknown as Segment;

/** A table in memory with a change log on one shard, as DynamoRevisionStore keeps it. */
function world() {
  const features = new Map<string, Feature>();
  const segments = new Map<number, Segment>();
  const log: SdkChange[] = [];
  const state = (): RevisionState => ({ revision: log.length, tokenChanges: 0, shards: new Map([['SHARD#00', log.length]]) });
  const changeLog: ChangeLog = {
    changesSince: async (from, to) => {
      const start = from.get('SHARD#00') ?? 0;
      return log.slice(start, to.get('SHARD#00')).map((change, i): ChangeLogEntry => ({ shard: 'SHARD#00', revision: start + i + 1, change }));
    },
  };
  const clock = { current: async () => log.length, state: async () => state(), fresh: async () => state() };
  const container = (wholeReads = { count: 0 }) => new ClientFeatureService(new FeatureSnapshots(
    { listAll: async () => { wholeReads.count += 1; return [...features.values()]; }, getMany: async (names) => names.flatMap((n) => (features.has(n) ? [features.get(n)!] : [])) },
    { list: async () => [...segments.values()] },
    clock,
    changeLog,
  ), clock);
  return { features, segments, log, container };
}

const caller: Caller = { tokenName: 'sdk', type: 'client', environment: 'production', projects: ['*'] };
const scopes = [{}, { clientSpec: '5.1.0' }, { projects: ['other'] }, { namePrefix: 'flag-01' }];

async function text(service: ClientFeatureService, request: object): Promise<string> {
  const answer = await service.features(caller, request, undefined);
  if (!answer.modified) throw new Error('expected a payload');
  return gunzipSync(Buffer.from(answer.payload.gzipBase64, 'base64')).toString();
}

describe('a payload built from the previous one', () => {
  it('equals the payload built whole, after edits, creates, archives, deletes and segment changes, in every scope', async () => {
    const w = world();
    w.segments.set(1, segment(1, 'a'));
    for (let i = 0; i < 600; i += 1) {
      const name = `flag-${String(i).padStart(4, '0')}`;
      w.features.set(name, flag(name, i % 7 === 0 ? 'other' : 'default', i % 50 === 0 ? [1] : []));
    }
    w.log.push({ features: [] });
    const wholeReads = { count: 0 };
    const warm = w.container(wholeReads);
    for (const scope of scopes) await text(warm, scope);

    const rounds: Array<() => SdkChange> = [
      () => { w.features.set('flag-0010', { ...flag('flag-0010'), description: 'edited' }); return { features: ['flag-0010'] }; },
      () => { w.features.set('aaa', flag('aaa')); w.features.set('zzz', flag('zzz', 'other')); return { features: ['aaa', 'zzz'] }; },
      () => { w.features.set('flag-0100', { ...flag('flag-0100'), archived: true }); w.features.delete('flag-0200'); return { features: ['flag-0100', 'flag-0200'] }; },
      () => { w.segments.set(1, segment(1, 'b')); return { features: [], segments: true }; },
      () => { for (let i = 300; i < 420; i += 1) w.features.delete(`flag-${String(i).padStart(4, '0')}`); return { features: Array.from({ length: 120 }, (_, k) => `flag-${String(300 + k).padStart(4, '0')}`) }; },
    ];
    for (const round of rounds) {
      w.log.push(round());
      for (const scope of scopes) expect(await text(warm, scope)).toBe(await text(w.container(), scope));
    }
    // Two changes between polls: the steps in between are followed.
    w.log.push((() => { w.features.set('flag-0001', { ...flag('flag-0001'), stale: true }); return { features: ['flag-0001'] }; })());
    w.log.push((() => { w.features.set('flag-0599', { ...flag('flag-0599'), description: 'late' }); return { features: ['flag-0599'] }; })());
    for (const scope of scopes) expect(await text(warm, scope)).toBe(await text(w.container(), scope));
    expect(wholeReads.count).toBe(1);
  });

  it('serves the same JSON text to a caller without gzip', async () => {
    const w = world();
    for (let i = 0; i < 50; i += 1) w.features.set(`flag-${i}`, flag(`flag-${i}`));
    w.log.push({ features: [] });
    const answer = await w.container().features(caller, {}, undefined);
    if (!answer.modified) throw new Error('expected a payload');
    expect(answer.payload.json).toBe(gunzipSync(Buffer.from(answer.payload.gzipBase64, 'base64')).toString());
    expect(answer.payload.jsonBytes).toBe(Buffer.byteLength(answer.payload.json));
    expect(JSON.parse(answer.payload.json).features).toHaveLength(50);
  });

  it('inflates the JSON text for a caller without gzip into one buffer, not two', async () => {
    const w = world();
    for (let i = 0; i < 200; i += 1) w.features.set(`flag-${i}`, flag(`flag-${i}`));
    w.log.push({ features: [] });
    const answer = await w.container().features(caller, {}, undefined);
    if (!answer.modified) throw new Error('expected a payload');
    const expected = gunzipSync(Buffer.from(answer.payload.gzipBase64, 'base64')).toString();
    // zlib takes its output buffers from Buffer.allocUnsafe: an output buffer of exactly the
    // text's size is followed by a second one of that size, allocated before the stream's end.
    const allocations: number[] = [];
    const allocUnsafe = Buffer.allocUnsafe;
    const spy = vi.spyOn(Buffer, 'allocUnsafe').mockImplementation((size: number) => {
      allocations.push(size);
      return allocUnsafe(size);
    });
    let json: string;
    try {
      json = answer.payload.json;
    } finally {
      spy.mockRestore();
    }
    expect(json).toBe(expected);
    const large = allocations.filter((size) => size >= answer.payload.jsonBytes);
    expect(large).toEqual([answer.payload.jsonBytes + 1]);
  });
});
