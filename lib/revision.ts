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
}

