/**
 * The revision item's counters as one read sees them. The item is shared machinery (written by
 * lib/store/revision-store.ts), read by the SDK path's clock and by the token cache, so its shape
 * lives with neither.
 */
export interface RevisionState {
  /** Moves with every write that SDKs can see, in the same transaction. */
  revision: number;
  /** Moves with every API token created or deleted (revocation reaches every instance with it). */
  tokenChanges: number;
  /**
   * Each shard's revision as read, by shard item (ADR 16): a reader that kept an older reading
   * reads what changed in between from the change log, shard by shard.
   */
  shards: ReadonlyMap<string, number>;
}

/**
 * What a change visible to SDKs touched, recorded in the change log in its transaction (ADR 16),
 * so an SDK container re-reads only that: the named features, the segments, or everything.
 */
export type SdkChange = { features: readonly string[]; segments?: boolean } | { everything: true };

/** One entry of the change log, at one shard's revision. */
export interface ChangeLogEntry {
  shard: string;
  revision: number;
  change: SdkChange;
}

