import { gunzipSync, gzipSync } from 'node:zlib';
import type { Feature } from '../features/model.js';
import type { Segment } from '../segments/model.js';

/**
 * The SDK snapshot kept in the table (ADR 20): every feature and segment at one revision, as
 * gzip-compressed JSON in pages, with the revision shards of the reading it answers. A cold SDK
 * container reads it and follows the change log from its shards instead of reading every
 * feature; a scheduled writer (functions/sdk-snapshot) keeps it recent.
 */

/**
 * The shape of the stored JSON. Bump it whenever `Feature` or `Segment` changes shape: a reader
 * ignores a snapshot of another format and reads every feature instead. The model fingerprint
 * test (test/unit/stored-snapshot.test.ts) fails until it is bumped.
 */
export const STORED_SNAPSHOT_FORMAT = 2;

/**
 * The form of the stored answers (ADR 25): the SDK payload's text of a feature, the chunks'
 * layout and the manifest. Bump it whenever any of them changes: a reader serves only stored
 * answers of its own form (others build from the snapshot), and the writer rewrites a head whose
 * answers are of another. The fingerprint test (test/unit/stored-scopes.test.ts) fails until it is.
 */
export const STORED_SCOPES_FORMAT = 2;

/** Compressed bytes per page item: DynamoDB's item limit is 400 KB, keys and attributes included. */
export const PAGE_BYTES = 350 * 1024;

/**
 * When the writer replaces the stored snapshot. A cold container re-reads by name every feature
 * changed since it, so it is rewritten once that many have changed; once anything changed and it
 * is this old, well before the change log's entries expire (a day: lib/store/revision-store.ts);
 * and once a day in any case, before its pages' time to live passes.
 */
export const REWRITE_POLICY = {
  /** How often the writer looks (the cloud's EventBridge schedule, the local runtime's timer). */
  checkEveryMinutes: 5,
  changedFeatures: 100,
  changedAfterMs: 6 * 60 * 60 * 1000,
  unchangedAfterMs: 24 * 60 * 60 * 1000,
  /** Pages are deleted by DynamoDB's time to live this long after they are written. */
  pageTtlSeconds: 3 * 24 * 60 * 60,
} as const;

/** The item that names the current stored snapshot. */
export interface StoredSnapshotHead {
  /** Names its pages; every write has a new one, so a reader never mixes two snapshots. */
  id: string;
  format: number;
  revision: number;
  /** Each revision shard's value at the reading it answers (ADR 16). */
  shards: ReadonlyMap<string, number>;
  /** The snapshot's own pages, numbered from 0. */
  pages: number;
  /** Compressed bytes of the snapshot's pages. */
  bytes: number;
  /**
   * The served answers stored beside it (ADR 25), by environment: their pages follow the
   * snapshot's. A head written before them has none, and readers then build as before.
   */
  scopes: ReadonlyMap<string, StoredScopePages>;
  /** STORED_SCOPES_FORMAT of the writer of `scopes` (0 when it wrote none). */
  scopesFormat: number;
  /** ISO time, set by the writer. */
  writtenAt: string;
}

/** Where one stored scope's bytes are: `count` pages from page `first`. */
export interface StoredScopePages {
  first: number;
  count: number;
  bytes: number;
}

export interface SnapshotContent {
  features: Feature[];
  segments: Segment[];
}

/** Where the stored snapshot lives (lib/client/dynamo-stored-snapshot.ts). */
export interface StoredSnapshotStore {
  head(): Promise<StoredSnapshotHead | undefined>;
  /** The head's pages in order, or undefined when one is missing (past its time to live). */
  pages(head: StoredSnapshotHead): Promise<Buffer[] | undefined>;
  /** One stored scope's pages in order (ADR 25), or undefined when the head has none for it or one is missing. */
  scopePages(head: StoredSnapshotHead, environment: string): Promise<Buffer[] | undefined>;
  /** Writes the pages (the snapshot's, then the scopes'), then the head unless a newer one is there; false when it was. */
  save(head: StoredSnapshotHead, pages: readonly Buffer[]): Promise<boolean>;
}

export function encodeSnapshot(content: SnapshotContent): Buffer[] {
  const compressed = gzipSync(JSON.stringify(content));
  const pages: Buffer[] = [];
  for (let start = 0; start < compressed.length; start += PAGE_BYTES) pages.push(compressed.subarray(start, start + PAGE_BYTES));
  return pages;
}

export function decodeSnapshot(pages: readonly Buffer[]): SnapshotContent {
  const content = JSON.parse(gunzipSync(Buffer.concat(pages)).toString('utf8')) as Partial<SnapshotContent>;
  if (!Array.isArray(content.features) || !Array.isArray(content.segments)) throw new Error('stored SDK snapshot without features or segments');
  return { features: content.features, segments: content.segments };
}

/** Whether the writer should replace `head`, given how many features changed since (undefined: the log cannot tell). */
export function needsRewrite(head: StoredSnapshotHead | undefined, currentRevision: number, changedFeatures: number | undefined, now: number): boolean {
  if (!head || head.format !== STORED_SNAPSHOT_FORMAT || head.scopesFormat !== STORED_SCOPES_FORMAT) return true;
  const age = now - Date.parse(head.writtenAt);
  if (!(age >= 0) || age >= REWRITE_POLICY.unchangedAfterMs) return true;
  if (head.revision >= currentRevision) return false;
  return changedFeatures === undefined || changedFeatures >= REWRITE_POLICY.changedFeatures || age >= REWRITE_POLICY.changedAfterMs;
}
