import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * A scope's gzip payload kept in chunks of features, so that a change re-serializes and
 * re-compresses only the chunks of the features it touched (ADR 16), while the whole compresses
 * as well as one stream would.
 *
 * Each chunk is raw deflate that ends with a sync flush (its blocks end on a byte boundary), and
 * is compressed with the last 32 KB of the text before it (the previous chunk's) as its preset
 * dictionary: the same window a compressor running over the whole text would have had, so its
 * back references reach across the boundary, and chunks laid one after the other in one gzip
 * member decompress as one stream (RFC 1951, 1952; pigz compresses in parallel the same way).
 * A chunk whose predecessor changed is compressed again with the new window, from its own text
 * (inflated with the window it was made with). The gzip trailer's CRC-32 of the whole text is
 * combined from the pieces' own (`crc32Combine`). Immutable: an update answers a new value that
 * shares the chunks it did not touch.
 */

/**
 * Uncompressed text per chunk: large enough to compress well, small enough to redo in
 * milliseconds. Each chunk ends its deflate block with a sync flush and starts the next with new
 * Huffman codes, so fewer chunks compress better: at 10,000 of the bench's flags (10 MB) 128 KB
 * chunks gave 231,689 bytes and 512 KB chunks 229,153 (one stream: 228,748), while a change
 * recompresses the chunk it touched and at most the one after it, each at most about
 * CHUNK_SPLIT_BYTES (flags appended one per change in name order: 9 ms of CPU median, 13 ms at the
 * 95th percentile here).
 */
export const CHUNK_TARGET_BYTES = 512 * 1024;
/**
 * A chunk an update grows past this is cut in two (or more) at fragment boundaries, so a change
 * never recompresses much more than twice CHUNK_TARGET_BYTES: new flags usually sort last
 * (sequential or dated names), and without the cut the last chunk would grow, and be compressed
 * whole again, on every change.
 */
const CHUNK_SPLIT_BYTES = 2 * CHUNK_TARGET_BYTES;
/** Deflate's window: how far back a match may reach, so what a chunk's dictionary holds. */
const WINDOW_BYTES = 32 * 1024;
/**
 * zlib's best compression with its largest state: on this JSON it costs about a third more time
 * than the default level (6), paid once per changed chunk, and saves bytes on every poll.
 * Z_FILTERED (matches shorter than 6 bytes are sent as literals) suits JSON whose repeats are
 * long: 0.1 to 0.2 % fewer bytes on the bench's flags at no cost in time.
 */
const DEFLATE = { level: constants.Z_BEST_COMPRESSION, memLevel: 9, strategy: constants.Z_FILTERED } as const;

/** One feature's JSON text in the scope, or undefined when the scope does not serve it. */
export type FragmentOf = (name: string) => string | undefined;

interface Piece {
  deflated: Buffer;
  crc: number;
  /** Bytes of uncompressed text. */
  length: number;
  /** Bytes the text gains when written as a JSON string (quotes, backslashes, control characters escaped). */
  jsonExtra: number;
}

interface Chunk extends Piece {
  /** The served feature names in this chunk, in payload order. */
  names: readonly string[];
  /** UTF-8 bytes of each name's fragment: where each one is in the chunk's text. */
  sizes: readonly number[];
  /** Whether the text starts with the comma that separates it from the chunk before. */
  lead: boolean;
  /** The dictionary it was compressed with (the previous chunk's `window`, the same object), if any. */
  dictionary: Buffer | undefined;
  /** The last WINDOW_BYTES of its text: the next chunk's dictionary. */
  window: Buffer;
}

/** The whole gzip member of a payload, with what Lambda's limit is measured on. */
export interface GzipPayload {
  gzip: Buffer;
  /** Bytes of the uncompressed JSON text (UTF-8). */
  jsonBytes: number;
  /** Bytes of that text written as a JSON string, quotes included: what it adds to a Lambda answer sent uncompressed. */
  quotedJsonBytes: number;
}

/**
 * A payload's chunks as the stored SDK snapshot keeps them (ADR 25): everything the gzip member
 * needs, without the windows (they are recovered by one inflate of the chunks when a change
 * touches the payload), and the last chunk's window the tail is compressed with.
 */
export interface StoredChunks {
  chunks: readonly StoredChunk[];
  /** The last WINDOW_BYTES of the whole text: the tail's dictionary. */
  lastWindow: Buffer;
}

export interface StoredChunk extends Piece {
  names: readonly string[];
  sizes: readonly number[];
  lead: boolean;
}

export class ChunkedPayload {
  /** Restored chunks keep no windows until an update needs them; `stored` is what they came from. */
  private materialized: readonly Chunk[] | undefined;

  private constructor(chunks: readonly Chunk[] | undefined, private readonly stored?: StoredChunks) {
    this.materialized = chunks;
  }

  /** What the stored SDK snapshot keeps of this payload. */
  toStored(): StoredChunks {
    const chunks = this.chunks;
    return {
      chunks: chunks.map(({ names, sizes, lead, deflated, crc, length, jsonExtra }) => ({ names, sizes, lead, deflated, crc, length, jsonExtra })),
      lastWindow: chunks.at(-1)?.window ?? Buffer.alloc(0),
    };
  }

  /**
   * A payload from stored chunks: served as it is, and inflated once (every chunk's window) only
   * when a change touches it.
   */
  static restore(stored: StoredChunks): ChunkedPayload {
    return new ChunkedPayload(undefined, stored);
  }

  /** The chunks with their windows; a restored payload inflates its text once to recover them. */
  private get chunks(): readonly Chunk[] {
    return this.materialized ?? this.materialize();
  }

  /** A restored payload's chunks with their windows, each chunk's text handed to `text` on the way. */
  private materialize(text?: (chunk: Chunk, text: Buffer) => void): readonly Chunk[] {
    const stored = this.stored as StoredChunks;
    const chunks: Chunk[] = [];
    for (const piece of stored.chunks) {
      const dictionary = chunks.at(-1)?.window;
      const inflated = inflateRawSync(piece.deflated, { finishFlush: constants.Z_SYNC_FLUSH, ...(dictionary ? { dictionary } : {}) });
      const chunk = { ...piece, dictionary, window: Buffer.from(inflated.subarray(Math.max(0, inflated.length - WINDOW_BYTES))) };
      chunks.push(chunk);
      text?.(chunk, inflated);
    }
    this.materialized = chunks;
    return chunks;
  }

  /** Pieces and the last window for the gzip member, without materializing a restored payload. */
  private get servedPieces(): { pieces: readonly Piece[]; lastWindow: Buffer | undefined } {
    if (this.materialized || !this.stored) return { pieces: this.chunks, lastWindow: this.chunks.at(-1)?.window };
    return { pieces: this.stored.chunks, lastWindow: this.stored.chunks.length > 0 ? this.stored.lastWindow : undefined };
  }

  /** Chunks over `names` (served, in payload order). */
  static build(names: readonly string[], fragmentOf: FragmentOf): ChunkedPayload {
    const chunks: Chunk[] = [];
    let current: { names: string[]; fragments: string[] } = { names: [], fragments: [] };
    let size = 0;
    const close = () => {
      chunks.push(compressChunk(current.names, current.fragments, chunks.at(-1)?.window, chunks.length > 0));
      current = { names: [], fragments: [] };
      size = 0;
    };
    for (const name of names) {
      const fragment = fragmentOf(name);
      if (fragment === undefined) continue;
      current.names.push(name);
      current.fragments.push(fragment);
      size += fragment.length;
      if (size >= CHUNK_TARGET_BYTES) close();
    }
    if (current.names.length > 0) close();
    return new ChunkedPayload(chunks);
  }

  /**
   * The payload after the features `changed` changed (added, edited, no longer served), each
   * looked up again with `fragmentOf` (and only they: the other fragments of a touched chunk come
   * from its own text). A touched chunk grown past CHUNK_SPLIT_BYTES is cut into chunks of about
   * equal size. `replaced` hears each changed name's fragment before the change, when it had one.
   */
  updated(changed: Iterable<string>, fragmentOf: FragmentOf, replaced?: (name: string, before: string) => void, known?: ReadonlyMap<string, string>): ChunkedPayload {
    // `known`: the fragments of this payload as `fragments()` answered, so a touched chunk is not inflated again; it may lack
    // only names in `changed` whose new fragment is undefined (they leave the payload, so their former text is never read).
    const fragmentsOf = known ? (chunk: Chunk) => new Map(chunk.names.map((name) => [name, known.get(name) as string])) : inflatedFragments;
    const touched = new Map<number, Set<string>>();
    for (const name of changed) {
      const index = this.chunkOf(name);
      let names = touched.get(index);
      if (!names) touched.set(index, (names = new Set()));
      names.add(name);
    }
    // Each touched chunk's fragments by name, its changes applied; undefined marks an untouched chunk.
    const edited: (Map<string, string> | undefined)[] = this.chunks.map((chunk, index) => {
      const names = touched.get(index);
      if (!names) return undefined;
      const fragments = fragmentsOf(chunk);
      for (const name of names) {
        const before = fragments.get(name);
        if (replaced && before !== undefined) replaced(name, before);
        const fragment = fragmentOf(name);
        if (fragment === undefined) fragments.delete(name);
        else fragments.set(name, fragment);
      }
      return fragments;
    });
    // With no chunk at all, the first change makes one.
    if (this.chunks.length === 0 && touched.size > 0) {
      const fragments = new Map<string, string>();
      for (const name of touched.get(0) ?? []) {
        const fragment = fragmentOf(name);
        if (fragment !== undefined) fragments.set(name, fragment);
      }
      edited.push(fragments);
    }
    const chunks: Chunk[] = [];
    for (const [index, fragments] of edited.entries()) {
      const previous = chunks.at(-1);
      const chunk = this.chunks[index];
      if (fragments === undefined && chunk) {
        // Untouched: kept as it is while what comes before it is, else compressed again for its new place.
        const inPlace = chunk.dictionary === previous?.window && chunk.lead === (previous !== undefined);
        chunks.push(inPlace ? chunk : compressChunk(chunk.names, [...fragmentsOf(chunk).values()], previous?.window, previous !== undefined, chunk.window));
        continue;
      }
      if (!fragments || fragments.size === 0) continue;
      const names = [...fragments.keys()].sort(compareText);
      const parts = cutBySize(names, names.map((name) => fragments.get(name) as string));
      for (const [part, { names: partNames, fragments: partFragments }] of parts.entries()) {
        const before = chunks.at(-1);
        // The last part ends with the text the chunk ended with, so it keeps the former window (the same object) when its
        // last WINDOW_BYTES did not change: the chunk after it stays in place.
        const formerWindow = part === parts.length - 1 ? chunk?.window : undefined;
        chunks.push(compressChunk(partNames, partFragments, before?.window, before !== undefined, formerWindow));
      }
    }
    return new ChunkedPayload(chunks);
  }

  /** The whole gzip member: `head`, the chunks' features separated by commas, `tail`. */
  gzip(head: string, tail: string): GzipPayload {
    const served = this.servedPieces;
    const pieces: Piece[] = [textPiece(head, constants.Z_SYNC_FLUSH, undefined), ...served.pieces];
    pieces.push(textPiece(tail, constants.Z_FINISH, served.lastWindow));
    let crc = 0;
    let length = 0;
    let jsonExtra = 0;
    for (const piece of pieces) {
      crc = crc32Combine(crc, piece.crc, piece.length);
      length += piece.length;
      jsonExtra += piece.jsonExtra;
    }
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc >>> 0, 0);
    trailer.writeUInt32LE(length % 2 ** 32, 4);
    return {
      gzip: Buffer.concat([GZIP_HEADER, ...pieces.map((piece) => piece.deflated), trailer]),
      jsonBytes: length,
      quotedJsonBytes: length + jsonExtra + 2,
    };
  }

  /**
   * Bytes held, for the cache's weight. A restored payload counts the windows it holds once
   * unpacked (`fragments`, `fragmentOf`, `updated`): the cache weighs an entry once, when it is
   * kept, and the unpacking comes later on the same object (a derived answer, E18), ~32 KB per
   * chunk. So the weight is the same before and after.
   */
  get weight(): number {
    const chunks: readonly { deflated: Buffer; names: readonly string[]; length: number }[] = this.materialized ?? this.stored?.chunks ?? [];
    // A chunk's window is the last WINDOW_BYTES of its text, or all of a shorter one.
    return chunks.reduce((sum, chunk) => sum + chunk.deflated.length + Math.min(chunk.length, WINDOW_BYTES) + chunk.names.length * 24, 0);
  }

  /**
   * Every served feature's text by name, in payload order (a restored payload is inflated once);
   * with `only`, just the texts of the names it accepts: a narrower answer keeps a fifth of a
   * large payload, and making each text a string is most of the work after the inflate.
   */
  fragments(only?: (name: string) => boolean): Map<string, string> {
    const all = new Map<string, string>();
    const add = (chunk: Chunk, text: Buffer) => {
      for (const [name, fragment] of inflatedFragments(chunk, text, only)) all.set(name, fragment);
    };
    if (this.materialized) for (const chunk of this.materialized) add(chunk, inflatedText(chunk));
    else this.materialize(add);
    return all;
  }

  /**
   * One served feature's text, or undefined when the payload does not serve it. A restored
   * payload is unpacked only for a name it serves: a name it lacks (E18's 404) is told from the
   * chunks' names alone.
   */
  fragmentOf(name: string): string | undefined {
    if (!this.serves(name)) return undefined;
    const chunk = this.chunks[this.chunkOf(name)];
    return chunk && inflatedFragments(chunk).get(name);
  }

  /** Every served feature's name, in payload order (a restored payload is not inflated). */
  names(): string[] {
    return (this.materialized ?? this.stored?.chunks ?? []).flatMap((chunk) => chunk.names);
  }

  /** Whether the payload serves `name` (looked up in the chunks' names; a restored payload is not inflated). */
  serves(name: string): boolean {
    const chunks = this.materialized ?? this.stored?.chunks ?? [];
    const names = chunks[chunkIndexOf(chunks, name)]?.names ?? [];
    let low = 0;
    let high = names.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const order = compareText(names[middle] as string, name);
      if (order === 0) return true;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /** The chunk `name` is in or would go into. */
  private chunkOf(name: string): number {
    return chunkIndexOf(this.chunks, name);
  }
}

/** The chunk `name` is in or would go into: the last whose first name is not after it. */
function chunkIndexOf(chunks: readonly { names: readonly string[] }[], name: string): number {
  let low = 0;
  let high = chunks.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (compareText(chunks[middle]?.names[0] as string, name) <= 0) low = middle;
    else high = middle - 1;
  }
  return Math.max(0, low);
}

/**
 * A touched chunk's fragments, cut at fragment boundaries into parts of about equal size when they
 * add up to more than CHUNK_SPLIT_BYTES: as many parts as whole CHUNK_TARGET_BYTES fit, so each
 * is between one and two targets (plus one fragment). Sizes count UTF-16 units, as `build` does.
 */
function cutBySize(names: readonly string[], fragments: readonly string[]): { names: string[]; fragments: string[] }[] {
  const total = fragments.reduce((sum, fragment) => sum + fragment.length + 1, 0);
  if (total <= CHUNK_SPLIT_BYTES) return [{ names: [...names], fragments: [...fragments] }];
  const count = Math.floor(total / CHUNK_TARGET_BYTES);
  const parts: { names: string[]; fragments: string[] }[] = [{ names: [], fragments: [] }];
  let size = 0;
  for (const [index, fragment] of fragments.entries()) {
    let part = parts.at(-1) as { names: string[]; fragments: string[] };
    // Part k closes once the sizes before it reach k/count of the total, never leaving a part empty.
    if (part.names.length > 0 && parts.length < count && size >= (parts.length * total) / count) {
      part = { names: [], fragments: [] };
      parts.push(part);
    }
    part.names.push(names[index] as string);
    part.fragments.push(fragment);
    size += fragment.length + 1;
  }
  return parts;
}

/** A gzip header: deflate, no name or time, unknown OS (RFC 1952). */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]);

/**
 * `formerWindow`: the window of the chunk this one replaces. When its last bytes are the same,
 * the same object is kept, so the chunk after it stays valid and is not compressed again.
 */
function compressChunk(names: readonly string[], fragments: readonly string[], dictionary: Buffer | undefined, lead: boolean, formerWindow?: Buffer): Chunk {
  const joined = fragments.join(',');
  const text = Buffer.from(lead ? `,${joined}` : joined, 'utf8');
  const window = text.subarray(Math.max(0, text.length - WINDOW_BYTES));
  return {
    names,
    sizes: fragments.map((fragment) => Buffer.byteLength(fragment, 'utf8')),
    lead,
    dictionary,
    window: formerWindow?.equals(window) ? formerWindow : Buffer.from(window),
    ...compressed(text, constants.Z_SYNC_FLUSH, dictionary),
    jsonExtra: jsonExtraOf(joined),
  };
}

/** A chunk's text, inflated with the dictionary it was made with. */
function inflatedText(chunk: Chunk): Buffer {
  return inflateRawSync(chunk.deflated, { finishFlush: constants.Z_SYNC_FLUSH, ...(chunk.dictionary ? { dictionary: chunk.dictionary } : {}) });
}

/** A chunk's fragments by name, from its own text (with `only`, those of the names it accepts). */
function inflatedFragments(chunk: Chunk, text: Buffer = inflatedText(chunk), only?: (name: string) => boolean): Map<string, string> {
  const fragments = new Map<string, string>();
  let at = chunk.lead ? 1 : 0;
  for (const [index, name] of chunk.names.entries()) {
    const size = chunk.sizes[index] as number;
    if (!only || only(name)) fragments.set(name, text.toString('utf8', at, at + size));
    at += size + 1;
  }
  return fragments;
}

function textPiece(text: string, flush: number, dictionary: Buffer | undefined): Piece {
  return { ...compressed(Buffer.from(text, 'utf8'), flush, dictionary), jsonExtra: jsonExtraOf(text) };
}

function compressed(text: Buffer, flush: number, dictionary: Buffer | undefined): Omit<Piece, 'jsonExtra'> {
  const options = dictionary ? { ...DEFLATE, finishFlush: flush, dictionary } : { ...DEFLATE, finishFlush: flush };
  return { deflated: deflateRawSync(text, options), crc: crc32(text), length: text.length };
}

/**
 * What `text` gains as a JSON string: escapes add bytes (`"` and `\` one, a control character
 * one or five, a lone surrogate three over its replacement's UTF-8). No escape spans two pieces,
 * so the pieces' gains add up to the whole text's.
 */
function jsonExtraOf(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2 - Buffer.byteLength(text, 'utf8');
}

/**
 * The CRC-32 of two texts laid end to end, from each one's CRC and the second's length.
 * Appending n bytes multiplies the first CRC by x^(8n) modulo the CRC polynomial (the register's
 * initial and final inversions cancel out between the two CRCs), so the combination is that
 * product added (XOR) to the second CRC. x^(8n) is the product of the powers x^(2^k) for the bits
 * of 8n, taken from a table of repeated squares built once per process: a combine is a few
 * 32-bit polynomial multiplications instead of squaring 32×32 bit matrices on every call.
 */
export function crc32Combine(crc1: number, crc2: number, length2: number): number {
  if (length2 === 0) return crc1 >>> 0;
  let operator = ONE;
  // Bit j of length2 stands for 2^j bytes, 2^(j+3) bits: the table's power j + 3.
  for (let bytes = length2, power = 3; bytes > 0; bytes = Math.floor(bytes / 2), power += 1) {
    if (bytes % 2 === 1) operator = multiplyModulo(operator, powerOfX(power));
  }
  return (multiplyModulo(operator, crc1 >>> 0) ^ crc2) >>> 0;
}

/**
 * CRC-32's polynomial in the bit order of the CRC register (reflected: bit 31 is the coefficient
 * of x^0, bit 0 of x^31; the x^32 term is implied).
 */
const CRC32_POLYNOMIAL = 0xedb88320;
/** The polynomial 1 (x^0) in that order. */
const ONE = 0x80000000;
/** x^(2^k) modulo the polynomial at index k, each the square of the one before; grown on demand. */
const POWERS_OF_X: number[] = [0x40000000];

function powerOfX(k: number): number {
  while (POWERS_OF_X.length <= k) {
    const last = POWERS_OF_X[POWERS_OF_X.length - 1] as number;
    POWERS_OF_X.push(multiplyModulo(last, last));
  }
  return POWERS_OF_X[k] as number;
}

/** a(x)·b(x) modulo the CRC polynomial, both in the register's bit order. */
function multiplyModulo(a: number, b: number): number {
  let product = 0;
  let multiple = b >>> 0;
  // For each term x^i of a (from bit 31 down), add b·x^i; b·x^(i+1) is b·x^i shifted one place, reduced when x^32 appears.
  for (let term = ONE, rest = a >>> 0; rest !== 0; term >>>= 1) {
    if (rest & term) {
      product ^= multiple;
      rest = (rest ^ term) >>> 0;
    }
    multiple = multiple & 1 ? (multiple >>> 1) ^ CRC32_POLYNOMIAL : multiple >>> 1;
  }
  return product >>> 0;
}

/** Code-unit order, as the payload sorts its features. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
