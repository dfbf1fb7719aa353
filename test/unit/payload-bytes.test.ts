import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHUNK_TARGET_BYTES, ChunkedPayload, crc32Combine } from '../../lib/client/payload-bytes.js';

const head = '{"version":2,"features":[';
const tail = '],"meta":{"revisionId":7}}';

/** Fragments as a map: what a scope serves at one moment. */
function scope(fragments: Map<string, string>) {
  const names = [...fragments.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const fragmentOf = (name: string) => fragments.get(name);
  const expected = () => `${head}${names.filter((n) => fragments.has(n)).map((n) => fragments.get(n)).join(',')}${tail}`;
  return { names, fragmentOf, expected };
}

function flags(count: number, size = 1_500): Map<string, string> {
  return new Map(Array.from({ length: count }, (_, i) => {
    const name = `flag-${String(i).padStart(5, '0')}`;
    return [name, JSON.stringify({ name, description: `${name} `.repeat(Math.ceil(size / 12)).slice(0, size) })];
  }));
}

describe('crc32Combine', () => {
  it('equals the CRC-32 of the two texts laid end to end, for any split', () => {
    const text = Buffer.from(Array.from({ length: 5_000 }, (_, i) => String.fromCharCode(32 + ((i * 7919) % 90))).join(''));
    for (const split of [0, 1, 7, 8, 9, 255, 256, 1_000, 4_999, 5_000]) {
      const [a, b] = [text.subarray(0, split), text.subarray(split)];
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(text));
    }
  });
});

describe('a chunked gzip payload', () => {
  it('is one gzip member that decompresses to head, the features separated by commas, and tail', () => {
    const { names, fragmentOf, expected } = scope(flags(400));
    const payload = ChunkedPayload.build(names, fragmentOf);
    expect(gunzipSync(payload.gzip(head, tail)).toString()).toBe(expected());
  });

  it('holds for no features, and for one', () => {
    for (const count of [0, 1]) {
      const { names, fragmentOf, expected } = scope(flags(count));
      expect(gunzipSync(ChunkedPayload.build(names, fragmentOf).gzip(head, tail)).toString()).toBe(expected());
    }
  });

  it('after updates (edited, added before, between and after every chunk, removed, a whole chunk emptied) equals a payload built whole', () => {
    const fragments = flags(400);
    const { names, fragmentOf } = scope(fragments);
    let payload = ChunkedPayload.build(names, fragmentOf) as ChunkedPayload;
    const perChunk = Math.ceil(CHUNK_TARGET_BYTES / 1_500);
    const changed = ['flag-00010', 'aaa-first', 'flag-00150x', 'zzz-last', 'flag-00399'];
    fragments.set('flag-00010', '{"name":"flag-00010","edited":true}');
    fragments.set('aaa-first', '{"name":"aaa-first"}');
    fragments.set('flag-00150x', '{"name":"flag-00150x"}');
    fragments.set('zzz-last', '{"name":"zzz-last"}');
    fragments.delete('flag-00399');
    for (let i = perChunk; i < 2 * perChunk + 1; i += 1) {
      const name = `flag-${String(i).padStart(5, '0')}`;
      fragments.delete(name);
      changed.push(name);
    }
    payload = payload.updated(changed, (name) => fragments.get(name)) as ChunkedPayload;

    const whole = scope(fragments);
    expect(gunzipSync(payload.gzip(head, tail)).toString()).toBe(whole.expected());
  });

  it('asks for a whole build when inserts grow one chunk far past its size', () => {
    const fragments = flags(10);
    const payload = ChunkedPayload.build(scope(fragments).names, (n) => fragments.get(n));
    const added = Array.from({ length: 800 }, (_, i) => `flag-00005-${i}`);
    for (const name of added) fragments.set(name, 'x'.repeat(1_500));
    expect(payload.updated(added, (n) => fragments.get(n))).toBeUndefined();
  });
});
