import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeatureReadModel } from '../../lib/client/feature-read-model.js';
import { FeatureSnapshots } from '../../lib/client/feature-snapshots.js';
import { decodeSnapshot, encodeSnapshot, PAGE_BYTES, STORED_SNAPSHOT_FORMAT, type StoredSnapshotHead } from '../../lib/client/stored-snapshot.js';
import type { Feature } from '../../lib/features/model.js';
import type { RevisionState } from '../../lib/revision.js';

describe('the stored SDK snapshot (ADR 20)', () => {
  it('comes back as it went in, in pages no larger than a page', () => {
    // Random text does not compress: several pages.
    const features = Array.from({ length: 40 }, (_, i) => ({ name: `flag-${i}`, description: randomBytes(20_000).toString('base64') }));
    const content = { features: features as unknown as Feature[], segments: [] };
    const pages = encodeSnapshot(content);
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(PAGE_BYTES);
    expect(decodeSnapshot(pages)).toEqual(content);
  });

  it('is refused when it is not a snapshot', () => {
    expect(() => decodeSnapshot(encodeSnapshot({ features: undefined, segments: [] } as never))).toThrow(/without features/);
  });

  it('names its format, which changes with the stored models', () => {
    // A stored snapshot holds Feature and Segment objects as JSON: when either model file changes,
    // record the new fingerprint, and when the change is to what a Feature or Segment holds, bump
    // STORED_SNAPSHOT_FORMAT too (readers then ignore older snapshots). Last change: a Feature
    // holds its creator, lifecycle stages and links (format 2).
    const fingerprint = createHash('sha256')
      .update(readFileSync('lib/features/model.ts'))
      .update(readFileSync('lib/segments/model.ts'))
      .digest('hex')
      .slice(0, 16);
    expect({ format: STORED_SNAPSHOT_FORMAT, fingerprint }).toEqual({ format: 2, fingerprint: 'df2dfce866c3f711' });
  });
});

describe('a cold container starting from the stored snapshot', () => {
  const flag = (description: string) => ({
    name: 'x', project: 'default', type: 'release', description, impressionData: false, stale: false, archived: false, archivedAt: null,
    createdAt: '2026-01-01T00:00:00.000Z', tags: [], dependencies: [], children: [], version: 1,
    environments: { production: { enabled: true, variants: [], strategies: [] } },
  }) as unknown as Feature;

  it('reads the change of a shard the stored snapshot is behind on, even when the shards add up to the same revision', async () => {
    // The stored snapshot holds shard A's second change but not shard B's; this container's
    // reading holds B's and not A's: the sums are equal (3), the contents are not.
    const head: StoredSnapshotHead = {
      id: 'h', format: STORED_SNAPSHOT_FORMAT, revision: 3, shards: new Map([['A', 2], ['B', 1]]), pages: 1, bytes: 1, writtenAt: new Date().toISOString(), scopes: new Map(), scopesFormat: 0,
    };
    const pages = encodeSnapshot({ features: [flag('before B')], segments: [] });
    const reading: RevisionState = { revision: 3, tokenChanges: 0, shards: new Map([['A', 1], ['B', 2]]) };
    const clock = { current: async () => 3, state: async () => reading, fresh: async () => reading };
    const service = new FeatureReadModel(new FeatureSnapshots(
      { listAll: async () => { throw new Error('no whole read expected'); }, getMany: async () => [flag('after B')] },
      { list: async () => [] },
      clock,
      { changesSince: async (from, to) => (to.get('B')! > from.get('B')! ? [{ shard: 'B', revision: 2, change: { features: ['x'] } }] : []) },
      { head: async () => head, pages: async () => pages, scopePages: async () => undefined, save: async () => true },
    ), clock);

    const [feature] = await service.everyFeature();
    expect(feature?.description).toBe('after B');
  });
});
