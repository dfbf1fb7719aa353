import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { featureText, PAYLOAD_HEAD, selectFeatures } from '../../lib/client/payload.js';
import type { ClientQuery } from '../../lib/client/query.js';
import { needsRewrite, PAGE_BYTES, STORED_SCOPES_FORMAT, STORED_SNAPSHOT_FORMAT } from '../../lib/client/stored-snapshot.js';
import { buildStoredScope, decodeScope, derivedScope, encodeScope, splicedScope, storedScopeSegmentsText } from '../../lib/client/stored-scopes.js';
import type { Feature } from '../../lib/features/model.js';
import type { Segment } from '../../lib/segments/model.js';
import { flag } from '../support/flag-tables.js';

const TAIL = ']}';
const segment = (id: number): Segment => ({
  id, name: `segment-${id}`, description: null, project: null, createdAt: '2026-11-01T00:00:00.000Z', createdBy: null,
  constraints: [{ contextName: 'region', operator: 'IN', values: [`r${id}`], caseInsensitive: false, inverted: false }],
} as Segment);

/** Flag `index` with a description long enough for several chunks, its production strategy using `segments`. */
function flagWith(index: number, segments: number[] = [], description = `flag ${index} `.repeat(40)): Feature {
  const base = flag(`flag-${String(index).padStart(5, '0')}`);
  const production = base.environments.production as Feature['environments'][string];
  return {
    ...base, description,
    environments: { production: { ...production, strategies: production.strategies.map((strategy) => ({ ...strategy, segments })) } },
  };
}

describe('stored scopes (ADR 25)', () => {
  it('come back from their pages serving the same bytes, without inflating their chunks', () => {
    const features = Array.from({ length: 2_000 }, (_, i) => flagWith(i, i % 7 === 0 ? [1] : []));
    const scope = buildStoredScope('production', features, [segment(1), segment(2)]);
    const pages = encodeScope(scope);
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(PAGE_BYTES);
    const restored = decodeScope(pages);
    expect(restored.chunked.gzip(PAYLOAD_HEAD, TAIL).gzip.equals(scope.chunked.gzip(PAYLOAD_HEAD, TAIL).gzip)).toBe(true);
    expect(storedScopeSegmentsText(restored)).toBe(JSON.stringify([{ id: 1, name: 'segment-1', constraints: segment(1).constraints }]));
    expect(restored.chunked.serves('flag-00007')).toBe(true);
    expect(restored.chunked.serves('flag-02000')).toBe(false);
  });

  it('are refused when their bytes do not add up to their manifest', () => {
    const pages = encodeScope(buildStoredScope('production', [flagWith(1)], []));
    expect(() => decodeScope([Buffer.concat([...pages, Buffer.from('x')])])).toThrow(/another length/);
  });

  it('splice changed features into the text a whole build makes, moving the segment uses', () => {
    const features = Array.from({ length: 1_500 }, (_, i) => flagWith(i, i === 10 ? [1] : i === 20 ? [2] : []));
    const segments = [segment(1), segment(2), segment(3)];
    const stored = decodeScope(encodeScope(buildStoredScope('production', features, segments)));
    const after = features.map((f, i) => (i === 10 ? flagWith(10, []) : i === 30 ? flagWith(30, [3], 'longer '.repeat(400)) : f));
    const archived = { ...(after[40] as Feature), archived: true };
    after[40] = archived;
    const added = flagWith(9_999, [1]);
    const changed = [after[10] as Feature, after[30] as Feature, archived, added];
    const names = new Set(changed.map((f) => f.name).concat('flag-00050'));
    const current = [...after.filter((f) => f.name !== 'flag-00050'), added];

    const spliced = splicedScope(stored, names, changed);
    const whole = buildStoredScope('production', current, segments);
    const text = (s: typeof whole) => gunzipSync(s.chunked.gzip(PAYLOAD_HEAD, TAIL).gzip).toString('utf8');
    expect(spliced && text(spliced) === text(whole)).toBe(true);
    expect(spliced && storedScopeSegmentsText(spliced)).toBe(storedScopeSegmentsText(whole));
    expect(JSON.parse(storedScopeSegmentsText(whole) as string).map((s: Segment) => s.id)).toEqual([1, 2, 3]);
  });

  it('derive a narrower scope\'s text from their stored chunks, as a whole build of that scope makes it, and follow changes in it', () => {
    const inProject = (feature: Feature, index: number): Feature => ({
      ...feature, project: index % 3 === 0 ? 'other' : 'default', tags: index % 5 === 0 ? [{ type: 'simple', value: 'five' }, { type: 'team', value: `t${index % 2}` }] : [],
    });
    const features = Array.from({ length: 1_500 }, (_, i) => inProject(flagWith(i, i % 4 === 0 ? [1] : i % 9 === 0 ? [1, 2] : []), i));
    const segments = [segment(1), segment(2)];
    const segmentsById = new Map(segments.map((s) => [s.id, s]));
    const stored = decodeScope(encodeScope(buildStoredScope('production', features, segments)));
    const text = (scope: { chunked: { gzip: (h: string, t: string) => { gzip: Buffer } } }) => gunzipSync(scope.chunked.gzip(PAYLOAD_HEAD, TAIL).gzip).toString('utf8');
    const whole = (all: readonly Feature[], query: ClientQuery) => `${PAYLOAD_HEAD}${selectFeatures(all, query).map((f) => featureText(f, query, segmentsById)).join(',')}${TAIL}`;
    const queries: ClientQuery[] = [
      { environment: 'production', projects: ['other'], inlineSegmentConstraints: false },
      { environment: 'production', namePrefix: 'flag-001', inlineSegmentConstraints: false },
      { environment: 'production', inlineSegmentConstraints: true },
      { environment: 'production', projects: ['default', 'none'], namePrefix: 'flag-00', inlineSegmentConstraints: true },
      { environment: 'production', tags: [{ type: 'team', value: 't1' }, { type: 'simple', value: 'none' }], inlineSegmentConstraints: false },
    ];
    for (const query of queries) {
      const derived = derivedScope(stored, query);
      expect(derived && text(derived)).toBe(whole(features, query));
      const listed = selectFeatures(features, query).some((f) => f.environments.production?.strategies.some((s) => s.segments.includes(2)));
      expect(derived && storedScopeSegmentsText(derived)).toBe(query.inlineSegmentConstraints ? undefined : JSON.stringify(segments.filter((s) => s.id === 1 || (s.id === 2 && listed)).map(({ id, name, constraints }) => ({ id, name, constraints }))));
      // A feature moved into the scope's project, one moved out, one archived: spliced as the derived scope serves them.
      const moved = [
        { ...(features[3] as Feature), project: 'default' }, { ...(features[4] as Feature), project: 'other' }, { ...(features[5] as Feature), archived: true },
        { ...(features[10] as Feature), tags: [] }, { ...(features[11] as Feature), tags: [{ type: 'team', value: 't1' }] },
      ];
      const after = features.map((f) => moved.find((m) => m.name === f.name) ?? f);
      const spliced = derived && splicedScope(derived, new Set(moved.map((m) => m.name)), moved);
      expect(spliced && text(spliced)).toBe(whole(after, query));
    }
  });

  it('cannot splice a feature that refers to a segment made after them', () => {
    const stored = buildStoredScope('production', [flagWith(1)], []);
    expect(splicedScope(stored, new Set(['flag-00001']), [flagWith(1, [4])])).toBeUndefined();
  });

  it('make the writer rewrite a head whose stored answers are of another form, or that has none', () => {
    const head = {
      id: 'h', format: STORED_SNAPSHOT_FORMAT, revision: 3, shards: new Map([['A', 3]]), pages: 1, bytes: 1,
      writtenAt: new Date(0).toISOString(), scopes: new Map(), scopesFormat: STORED_SCOPES_FORMAT,
    };
    expect(needsRewrite(head, 3, 0, 1_000)).toBe(false);
    expect(needsRewrite({ ...head, scopesFormat: 0 }, 3, 0, 1_000)).toBe(true);
    expect(needsRewrite({ ...head, scopesFormat: STORED_SCOPES_FORMAT + 1 }, 3, 0, 1_000)).toBe(true);
  });

  it('name their form, which changes with the payload text and the chunk layout', () => {
    // When one of these files changes, record the new fingerprint, and when what a stored answer
    // holds or how a feature's SDK text is written changed, bump STORED_SCOPES_FORMAT too (readers
    // then build from the snapshot, and the writer rewrites), so a cold container never serves
    // text of the old form from a deployed head. payload.ts is here because its featureText
    // (toClientFeature, toClientStrategy) writes the stored text, and readers parse or rewrite
    // that text by its form rather than rebuild it: E18 answers it as it is
    // (features-service.ts), inlinedFragment and segmentIdsInFragment (stored-scopes.ts) rely on
    // its keys and its `"segments":[` lists. schemas.ts is the form those functions write;
    // payload-bytes.ts and stored-scopes.ts are the chunks' and the manifest's layout.
    const fingerprint = createHash('sha256')
      .update(readFileSync('lib/client/payload.ts'))
      .update(readFileSync('lib/client/schemas.ts'))
      .update(readFileSync('lib/client/payload-bytes.ts'))
      .update(readFileSync('lib/client/stored-scopes.ts'))
      .digest('hex')
      .slice(0, 16);
    expect({ format: STORED_SCOPES_FORMAT, fingerprint }).toEqual({ format: 2, fingerprint: '2a624e3a4dda668a' });
  });
});
