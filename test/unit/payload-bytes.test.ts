import { constants, crc32, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CHUNK_TARGET_BYTES, ChunkedPayload, crc32Combine } from '../../lib/client/payload-bytes.js';
import { seededRandom } from '../support/seeded-random.js';

const head = '{"version":2,"features":[';
const tail = '],"meta":{"revisionId":7}}';

/** Fragments as a map: what a scope serves at one moment. */
function scope(fragments: Map<string, string>) {
  const names = [...fragments.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const fragmentOf = (name: string) => fragments.get(name);
  const expected = () => `${head}${names.filter((n) => fragments.has(n)).map((n) => fragments.get(n)).join(',')}${tail}`;
  return { names, fragmentOf, expected };
}

/** Flags of 1,500 bytes enough for `chunks` chunks and a part of one more. */
const forChunks = (chunks: number) => Math.ceil(((chunks + 0.2) * CHUNK_TARGET_BYTES) / 1_500);

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

  it('equals zlib\'s CRC-32 of the concatenation for seeded random texts and lengths, empty ones included', () => {
    const random = seededRandom('crc32Combine against zlib').next;
    const lengths = [0, 1, 2, 3, 4, 5, 8, 31, 32, 33, 1_023, 1_024, 65_536, 524_289];
    const bytes = (length: number) => Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
    for (let round = 0; round < 60; round += 1) {
      const pick = () => (random() < 0.5 ? (lengths[Math.floor(random() * lengths.length)] as number) : Math.floor(random() * 3_000));
      const [a, b] = [bytes(pick()), bytes(pick())];
      expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
    }
  });

  it('is associative for lengths past 2^32 bytes, where the table of powers grows beyond 32 entries', () => {
    const random = seededRandom('crc32Combine past 2^32 bytes').next;
    for (let round = 0; round < 20; round += 1) {
      const [a, b, c] = [random(), random(), random()].map((draw) => Math.floor(draw * 2 ** 32) >>> 0) as [number, number, number];
      const [lengthB, lengthC] = [Math.floor(random() * 2 ** 45), Math.floor(random() * 2 ** 40) + 1];
      const left = crc32Combine(crc32Combine(a, b, lengthB), c, lengthC);
      const right = crc32Combine(a, crc32Combine(b, c, lengthC), lengthB + lengthC);
      expect(left).toBe(right);
    }
  });
});

describe('a chunked gzip payload', () => {
  it('is one gzip member that decompresses to head, the features separated by commas, and tail', () => {
    const { names, fragmentOf, expected } = scope(flags(forChunks(4)));
    const payload = ChunkedPayload.build(names, fragmentOf);
    expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(expected());
  });

  it('holds for no features, and for one', () => {
    for (const count of [0, 1]) {
      const { names, fragmentOf, expected } = scope(flags(count));
      expect(gunzipSync(ChunkedPayload.build(names, fragmentOf).gzip(head, tail).gzip).toString()).toBe(expected());
    }
  });

  it('after updates (edited, added before, between and after every chunk, removed, a whole chunk emptied) equals a payload built whole', () => {
    const fragments = flags(forChunks(4));
    const last = `flag-${String(fragments.size - 1).padStart(5, '0')}`;
    const { names, fragmentOf } = scope(fragments);
    let payload = ChunkedPayload.build(names, fragmentOf) as ChunkedPayload;
    const perChunk = Math.ceil(CHUNK_TARGET_BYTES / 1_500);
    const changed = ['flag-00010', 'aaa-first', 'flag-00150x', 'zzz-last', last];
    fragments.set('flag-00010', '{"name":"flag-00010","edited":true}');
    fragments.set('aaa-first', '{"name":"aaa-first"}');
    fragments.set('flag-00150x', '{"name":"flag-00150x"}');
    fragments.set('zzz-last', '{"name":"zzz-last"}');
    fragments.delete(last);
    for (let i = perChunk; i < 2 * perChunk + 1; i += 1) {
      const name = `flag-${String(i).padStart(5, '0')}`;
      fragments.delete(name);
      changed.push(name);
    }
    payload = payload.updated(changed, (name) => fragments.get(name)) as ChunkedPayload;

    const whole = scope(fragments);
    expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(whole.expected());
  });

  it('cuts a chunk that inserts grow far past its size into chunks of one to two targets, never asking for a whole build', () => {
    const fragments = flags(10);
    const payload = ChunkedPayload.build(scope(fragments).names, (n) => fragments.get(n));
    // Eight chunks' worth inserted into one chunk at once.
    const added = Array.from({ length: forChunks(8) }, (_, i) => `flag-00005-${i}`);
    for (const name of added) fragments.set(name, 'x'.repeat(1_500));
    const updated = payload.updated(added, (n) => fragments.get(n));
    expect(gunzipSync(updated.gzip(head, tail).gzip).toString()).toBe(scope(fragments).expected());
    const lengths = updated.toStored().chunks.map((chunk) => chunk.length);
    expect(lengths.length).toBe(8);
    for (const length of lengths) {
      expect(length).toBeGreaterThanOrEqual(CHUNK_TARGET_BYTES);
      expect(length).toBeLessThanOrEqual(2 * CHUNK_TARGET_BYTES + 1_501);
    }
  });

  it('recompresses at most about two targets per appended flag while flags are appended in name order, and stays one valid stream (seeded)', () => {
    // Flags of seeded sizes appended one per change after the last name, as sequential or dated names are: each change
    // touches the last chunk. The chunks whose deflated bytes are new after a change are the ones it compressed.
    const random = seededRandom('appends in name order').next;
    const fragmentOfSize = (index: number, size: number) => {
      const name = `flag-${String(index).padStart(5, '0')}`;
      return [name, JSON.stringify({ name, index, description: `${name} ${'lorem ipsum '.repeat(Math.ceil(size / 12))}`.slice(0, size) })] as const;
    };
    const fragments = new Map(Array.from({ length: forChunks(1) }, (_, i) => fragmentOfSize(i, 1_500)));
    let payload = ChunkedPayload.build(scope(fragments).names, (n) => fragments.get(n));
    let largestFragment = 1_500 + 100;
    let largestRecompressed = 0;
    let splits = 0;
    for (let step = 0; step < 260; step += 1) {
      const size = 4_000 + Math.floor(random() * 12_000);
      const [name, fragment] = fragmentOfSize(forChunks(1) + step, size);
      fragments.set(name, fragment);
      largestFragment = Math.max(largestFragment, fragment.length);
      const before = new Set(payload.toStored().chunks.map((chunk) => chunk.deflated));
      const chunksBefore = before.size;
      payload = payload.updated([name], (n) => fragments.get(n));
      const after = payload.toStored().chunks;
      if (after.length > chunksBefore) splits += 1;
      const recompressed = after.filter((chunk) => !before.has(chunk.deflated)).reduce((sum, chunk) => sum + chunk.length, 0);
      largestRecompressed = Math.max(largestRecompressed, recompressed);
      expect(recompressed).toBeLessThanOrEqual(2 * CHUNK_TARGET_BYTES + largestFragment + 1);
      expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(scope(fragments).expected());
    }
    // ~2.4 MB appended: the last chunk passed two targets and was cut at least twice.
    expect(splits).toBeGreaterThanOrEqual(2);
    expect(largestRecompressed).toBeGreaterThan(2 * CHUNK_TARGET_BYTES);
  });

  it('keeps the chunk after a cut one in place when the cut one\'s last window is unchanged', () => {
    const fragments = flags(forChunks(3));
    const { names, fragmentOf } = scope(fragments);
    const payload = ChunkedPayload.build(names, fragmentOf);
    const storedBefore = payload.toStored().chunks;
    // Inserted at the start of the first chunk, past two targets in all: it is cut, its last bytes stay the same.
    const added = Array.from({ length: Math.ceil((1.2 * CHUNK_TARGET_BYTES) / 1_500) }, (_, i) => `flag-00000-${String(i).padStart(4, '0')}`);
    for (const name of added) fragments.set(name, JSON.stringify({ name, text: 'y'.repeat(1_450) }));
    const updated = payload.updated(added, (n) => fragments.get(n));
    const storedAfter = updated.toStored().chunks;
    expect(storedAfter.length).toBe(storedBefore.length + 1);
    expect(storedAfter.slice(2).map((chunk) => chunk.deflated)).toEqual(storedBefore.slice(1).map((chunk) => chunk.deflated));
    for (const [index, chunk] of storedBefore.slice(1).entries()) expect(storedAfter[index + 2]?.deflated).toBe(chunk.deflated);
    expect(gunzipSync(updated.gzip(head, tail).gzip).toString()).toBe(scope(fragments).expected());
  });

  it('compresses about as well as the whole text in one stream, far better than the fastest gzip level', () => {
    const fragments = flags(2_000, 1_200);
    const { names, fragmentOf, expected } = scope(fragments);
    const chunked = ChunkedPayload.build(names, fragmentOf).gzip(head, tail).gzip.length;
    const text = expected();
    const wholeBest = gzipSync(text, { level: constants.Z_BEST_COMPRESSION, memLevel: 9 }).length;
    expect(chunked).toBeLessThan(gzipSync(text, { level: 1 }).length);
    // Within half a percent of one stream at zlib's best: the chunks' flushes and fresh Huffman codes cost little at CHUNK_TARGET_BYTES.
    expect(chunked).toBeLessThanOrEqual(Math.ceil(wholeBest * 1.005));
  });

  it('knows its text\'s bytes and its size as a JSON string, escapes and non-ASCII included', () => {
    const fragments = new Map([
      ['a', JSON.stringify({ name: 'a', description: 'quote " backslash \\ newline \n tab \t bell \u0007' })],
      ['b', JSON.stringify({ name: 'b', description: 'æøå 日本 😀 \u2028' })],
      ...flags(200),
    ]);
    const { names, fragmentOf, expected } = scope(fragments);
    const payload = ChunkedPayload.build(names, fragmentOf).gzip(head, tail);
    expect(payload.jsonBytes).toBe(Buffer.byteLength(expected(), 'utf8'));
    expect(payload.quotedJsonBytes).toBe(Buffer.byteLength(JSON.stringify(expected()), 'utf8'));
  });

  it('recompresses a chunk whose predecessor changed and stays one valid stream over many updates (seeded)', () => {
    const fragments = flags(600, 900);
    const { names, fragmentOf } = scope(fragments);
    let payload = ChunkedPayload.build(names, fragmentOf) as ChunkedPayload;
    let seed = 29;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 25; round += 1) {
      const changed: string[] = [];
      for (let i = 0; i < 1 + Math.floor(random() * 5); i += 1) {
        const name = `flag-${String(Math.floor(random() * 700)).padStart(5, '0')}`;
        if (random() < 0.3) fragments.delete(name);
        else fragments.set(name, JSON.stringify({ name, round, text: 'x'.repeat(Math.floor(random() * 2_000)) }));
        changed.push(name);
      }
      payload = payload.updated(changed, (name) => fragments.get(name)) ?? ChunkedPayload.build(scope(fragments).names, (n) => fragments.get(n));
      expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(scope(fragments).expected());
    }
  });

  it('goes from no features to some and back', () => {
    const fragments = new Map<string, string>();
    let payload = ChunkedPayload.build([], (n) => fragments.get(n)) as ChunkedPayload;
    fragments.set('only', '{"name":"only"}');
    payload = payload.updated(['only'], (n) => fragments.get(n)) as ChunkedPayload;
    expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(`${head}{"name":"only"}${tail}`);
    fragments.delete('only');
    payload = payload.updated(['only'], (n) => fragments.get(n)) as ChunkedPayload;
    expect(gunzipSync(payload.gzip(head, tail).gzip).toString()).toBe(`${head}${tail}`);
  });

  it('weighs a restored payload as it weighs once unpacked, so the cache that weighed it once stays right', () => {
    const { names, fragmentOf } = scope(flags(forChunks(4)));
    const built = ChunkedPayload.build(names, fragmentOf);
    const stored = built.toStored();
    expect(stored.chunks.length).toBeGreaterThan(2);
    const deflatedAndNames = stored.chunks.reduce((sum, chunk) => sum + chunk.deflated.length + chunk.names.length * 24, 0);
    const windows = stored.chunks.reduce((sum, chunk) => sum + Math.min(chunk.length, 32 * 1024), 0);
    const restored = ChunkedPayload.restore(stored);
    expect(restored.weight).toBe(deflatedAndNames + windows);
    expect(restored.weight).toBe(built.weight);
    expect(restored.fragments().size).toBe(names.length);
    expect(restored.weight).toBe(built.weight);
    const another = ChunkedPayload.restore(stored);
    expect(another.fragmentOf(names[123] as string)).toBe(fragmentOf(names[123] as string));
    expect(another.weight).toBe(built.weight);
  });

  it('answers a name a restored payload lacks without unpacking a chunk', () => {
    const { names, fragmentOf } = scope(flags(forChunks(4)));
    const stored = ChunkedPayload.build(names, fragmentOf).toStored();
    // Bytes no inflate accepts (a reserved block type): any unpacking would throw.
    const unreadable = ChunkedPayload.restore({ ...stored, chunks: stored.chunks.map((chunk) => ({ ...chunk, deflated: Buffer.alloc(16, 0xff) })) });
    for (const missing of ['flag-00000x', 'a', 'zzz', 'flag-99999']) expect(unreadable.fragmentOf(missing)).toBeUndefined();
    expect(unreadable.serves(names[5] as string)).toBe(true);
    expect(() => unreadable.fragmentOf(names[5] as string)).toThrow();
  });

  it('lists its names without unpacking, and answers only the texts a filter accepts, narrowed to them as from every text', () => {
    const fragments = flags(forChunks(3));
    const { names, fragmentOf } = scope(fragments);
    const stored = ChunkedPayload.build(names, fragmentOf).toStored();
    const unreadable = ChunkedPayload.restore({ ...stored, chunks: stored.chunks.map((chunk) => ({ ...chunk, deflated: Buffer.alloc(16, 0xff) })) });
    expect(unreadable.names()).toEqual(names);
    const kept = (name: string) => Number(name.slice(5)) % 5 === 2;
    const every = ChunkedPayload.restore(stored).fragments();
    const restored = ChunkedPayload.restore(stored);
    const some = restored.fragments(kept);
    expect([...some]).toEqual([...every].filter(([name]) => kept(name)));
    expect(some.size).toBe(names.filter(kept).length);
    // `updated` with the accepted texts alone as what it knows: the names it lacks are the ones leaving.
    const leaving = names.filter((name) => !kept(name));
    const narrowed = restored.updated(leaving, () => undefined, undefined, some) as ChunkedPayload;
    const expected = `${head}${names.filter(kept).map((name) => fragments.get(name)).join(',')}${tail}`;
    expect(gunzipSync(narrowed.gzip(head, tail).gzip).toString()).toBe(expected);
    const fromEvery = ChunkedPayload.restore(stored).updated(leaving, () => undefined, undefined, every) as ChunkedPayload;
    expect(narrowed.gzip(head, tail).gzip.equals(fromEvery.gzip(head, tail).gzip)).toBe(true);
  });
});
