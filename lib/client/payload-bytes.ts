import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A scope's gzip payload kept in chunks of features, so that a change re-serializes and
 * re-compresses only the chunks of the features it touched (ADR 16).
 *
 * Each chunk is compressed on its own and ends with a full flush: its deflate blocks end on a
 * byte boundary and refer to nothing before them, so chunks compressed at different times can be
 * laid one after the other in one gzip member (RFC 1951, 1952). The gzip trailer's CRC-32 of the
 * whole text is combined from the chunks' own (`crc32Combine`), so no chunk's text is kept.
 * Immutable: an update answers a new value that shares the chunks it did not touch.
 */

/** Uncompressed text per chunk: large enough to compress well, small enough to redo in milliseconds. */
export const CHUNK_TARGET_BYTES = 128 * 1024;
/** A chunk grown past this by inserts makes the next update rebuild all chunks. */
const CHUNK_MAX_BYTES = 8 * CHUNK_TARGET_BYTES;

/** One feature's JSON text in the scope, or undefined when the scope does not serve it. */
export type FragmentOf = (name: string) => string | undefined;

interface Chunk {
  /** The served feature names in this chunk, in payload order. */
  names: readonly string[];
  deflated: Buffer;
  crc: number;
  /** Bytes of uncompressed text. */
  length: number;
}

interface Piece {
  deflated: Buffer;
  crc: number;
  length: number;
}

export class ChunkedPayload {
  private constructor(
    private readonly chunks: readonly Chunk[],
    /** The first name each chunk covers (chunk 0 covers everything before chunk 1). */
    private readonly bounds: readonly string[],
  ) {}

  /** Chunks over `names` (served, in payload order). */
  static build(names: readonly string[], fragmentOf: FragmentOf): ChunkedPayload {
    const chunks: Chunk[] = [];
    let current: string[] = [];
    let size = 0;
    for (const name of names) {
      const fragment = fragmentOf(name);
      if (fragment === undefined) continue;
      current.push(name);
      size += fragment.length;
      if (size >= CHUNK_TARGET_BYTES) {
        chunks.push(compressChunk(current, fragmentOf));
        current = [];
        size = 0;
      }
    }
    if (current.length > 0 || chunks.length === 0) chunks.push(compressChunk(current, fragmentOf));
    return new ChunkedPayload(chunks, chunks.map((chunk, index) => (index === 0 ? '' : (chunk.names[0] as string))));
  }

  /**
   * The payload after the features `changed` changed (added, edited, no longer served), each
   * looked up again with `fragmentOf`; undefined when a chunk grew too large and all should be
   * built again.
   */
  updated(changed: Iterable<string>, fragmentOf: FragmentOf): ChunkedPayload | undefined {
    const touched = new Map<number, Set<string>>();
    for (const name of changed) {
      const index = this.chunkOf(name);
      let names = touched.get(index);
      if (!names) touched.set(index, (names = new Set(this.chunks[index]?.names)));
      if (fragmentOf(name) === undefined) names.delete(name);
      else names.add(name);
    }
    const chunks = [...this.chunks];
    for (const [index, names] of touched) {
      const chunk = compressChunk([...names].sort(compareText), fragmentOf);
      if (chunk.length > CHUNK_MAX_BYTES) return undefined;
      chunks[index] = chunk;
    }
    return new ChunkedPayload(chunks, this.bounds);
  }

  /** The whole gzip member: `head`, the chunks' features separated by commas, `tail`. */
  gzip(head: string, tail: string): Buffer {
    const pieces: Piece[] = [textPiece(head, constants.Z_FULL_FLUSH)];
    let first = true;
    for (const chunk of this.chunks) {
      if (chunk.names.length === 0) continue;
      if (!first) pieces.push(COMMA);
      pieces.push(chunk);
      first = false;
    }
    pieces.push(textPiece(tail, constants.Z_FINISH));
    let crc = 0;
    let length = 0;
    for (const piece of pieces) {
      crc = crc32Combine(crc, piece.crc, piece.length);
      length += piece.length;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length % 2 ** 32, 4);
    return Buffer.concat([GZIP_HEADER, ...pieces.map((piece) => piece.deflated), trailer]);
  }

  /** Bytes held, for the cache's weight. */
  get weight(): number {
    return this.chunks.reduce((sum, chunk) => sum + chunk.deflated.length + chunk.names.length * 16, 0);
  }

  private chunkOf(name: string): number {
    let low = 0;
    let high = this.bounds.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (compareText(this.bounds[middle] as string, name) <= 0) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** A gzip header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);

function compressChunk(names: readonly string[], fragmentOf: FragmentOf): Chunk {
  const text = Buffer.from(names.map((name) => fragmentOf(name) as string).join(','), 'utf8');
  return { names, ...compressed(text, constants.Z_FULL_FLUSH) };
}

function textPiece(text: string, flush: number): Piece {
  return compressed(Buffer.from(text, 'utf8'), flush);
}

function compressed(text: Buffer, flush: number): Piece {
  return { deflated: deflateRawSync(text, { finishFlush: flush }), crc: crc32(text), length: text.length };
}

const COMMA = textPiece(',', constants.Z_FULL_FLUSH);

/**
 * The CRC-32 of two texts laid end to end, from each one's CRC and the second's length: the
 * first CRC is carried through `length2` zero bytes by squaring the one-zero-bit operator
 * (a 32×32 matrix over GF(2)), then the second is added (the method of zlib's crc32_combine).
 */
export function crc32Combine(crc1: number, crc2: number, length2: number): number {
  if (length2 === 0) return crc1 >>> 0;
  let odd = new Uint32Array(32);
  let even = new Uint32Array(32);
  odd[0] = 0xedb88320; // the CRC-32 polynomial: the operator for one zero bit
  for (let n = 1, row = 1; n < 32; n += 1, row <<= 1) odd[n] = row >>> 0;
  square(even, odd); // two zero bits
  square(odd, even); // four zero bits
  let crc = crc1 >>> 0;
  let remaining = length2;
  // Each round squares the operator once more (8, 16, 32 … zero bits: one byte, two, four …).
  while (remaining > 0) {
    square(even, odd);
    if (remaining % 2 === 1) crc = times(even, crc);
    remaining = Math.floor(remaining / 2);
    [odd, even] = [even, odd];
  }
  return (crc ^ crc2) >>> 0;
}

function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0, v = vector >>> 0; v !== 0; i += 1, v >>>= 1) if (v & 1) sum ^= matrix[i] as number;
  return sum >>> 0;
}

function square(target: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n += 1) target[n] = times(matrix, matrix[n] as number);
}

/** Code-unit order, as the payload sorts its features. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
