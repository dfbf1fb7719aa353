/**
 * The items that requests hold while DynamoDB works on them, and the rules of "Transaction
 * conflict handling in DynamoDB" (Developer Guide, transaction-apis): a conflict occurs when
 * - a PutItem, UpdateItem or DeleteItem request is for an item an ongoing TransactWriteItems holds;
 * - an item within a TransactWriteItems request is part of another ongoing TransactWriteItems
 *   (and, from "Isolation levels": a transaction is cancelled when an item is modified outside
 *   it while it runs, so an ongoing single-item write counts too);
 * - an item within a TransactGetItems request is part of an ongoing TransactWriteItems,
 *   BatchWriteItem, PutItem, UpdateItem or DeleteItem. A write that starts while a
 *   TransactGetItems runs cancels that read: the read is marked and answered as cancelled.
 * Reads outside transactions (GetItem, Query, Scan, BatchGetItem) are never refused.
 * Every check and claim runs synchronously, so on one event loop each is atomic.
 */
export type HolderKind = 'transact-write' | 'transact-get' | 'write';

export interface Holder {
  kind: HolderKind;
  keys: string[];
  /** For a TransactGetItems: its keys that a write touched while it ran. */
  touched: Set<string>;
}

export class InFlight {
  private readonly held = new Map<string, Set<Holder>>();

  /** Is `key` held by a request of one of these kinds? */
  heldBy(key: string, kinds: HolderKind[]): boolean {
    for (const holder of this.held.get(key) ?? []) if (kinds.includes(holder.kind)) return true;
    return false;
  }

  claim(kind: HolderKind, keys: string[]): Holder {
    const holder: Holder = { kind, keys, touched: new Set() };
    for (const key of keys) {
      let holders = this.held.get(key);
      if (!holders) this.held.set(key, (holders = new Set()));
      if (kind !== 'transact-get') {
        for (const other of holders) if (other.kind === 'transact-get') other.touched.add(key);
      }
      holders.add(holder);
    }
    return holder;
  }

  release(holder: Holder): void {
    for (const key of holder.keys) {
      const holders = this.held.get(key);
      holders?.delete(holder);
      if (holders?.size === 0) this.held.delete(key);
    }
  }

  get size(): number {
    return this.held.size;
  }
}

/** What blocks an item of each kind of request. */
export const BLOCKED_BY: Record<HolderKind, HolderKind[]> = {
  'transact-write': ['transact-write', 'write'],
  'transact-get': ['transact-write', 'write'],
  write: ['transact-write'],
};
