export interface CacheBounds<V> {
  /** At most this many entries. */
  maxEntries: number;
  /** At most this total weight (bytes, when `weigh` measures bytes). */
  maxWeight?: number;
  weigh?: (value: V) => number;
}

/**
 * A Map that holds at most `maxEntries` entries of at most `maxWeight` in all, and forgets the
 * least recently used ones first. Each warm function keeps one per process: a handful of SDK
 * scopes is the usual case, and the bounds keep memory flat when callers vary their query
 * strings or a payload grows large.
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; weight: number }>();
  private totalWeight = 0;
  private readonly bounds: Required<CacheBounds<V>>;

  constructor(bounds: CacheBounds<V> | number) {
    const given = typeof bounds === 'number' ? { maxEntries: bounds } : bounds;
    this.bounds = { maxWeight: Number.POSITIVE_INFINITY, weigh: () => 0, ...given };
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Re-inserting moves the key to the end of the Map's order: most recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores the value unless it alone outweighs the whole cache; answers whether it did. */
  set(key: K, value: V): boolean {
    this.delete(key);
    const weight = this.bounds.weigh(value);
    if (weight > this.bounds.maxWeight) return false;
    this.entries.set(key, { value, weight });
    this.totalWeight += weight;
    this.evict();
    return true;
  }

  delete(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.totalWeight -= entry.weight;
  }

  clear(): void {
    this.entries.clear();
    this.totalWeight = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  get weight(): number {
    return this.totalWeight;
  }

  private evict(): void {
    while (this.entries.size > this.bounds.maxEntries || this.totalWeight > this.bounds.maxWeight) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.delete(oldest.value);
    }
  }
}

/**
 * Answers remembered for a while per key, as promises: callers at the same time share one
 * (one read, one discovery), and one that fails is forgotten at once, so the next caller asks
 * again. Bounded like BoundedCache.
 */
export class ExpiringPromises<K, V> {
  private readonly entries: BoundedCache<K, { promise: Promise<V>; until: number }>;

  constructor(maxEntries: number) {
    this.entries = new BoundedCache({ maxEntries });
  }

  /** The remembered answer for `key` while `at` is before its end, else `make(key)`'s, remembered for `ttlMs`. */
  get(key: K, at: number, ttlMs: number, make: (key: K) => Promise<V>): Promise<V> {
    const known = this.entries.get(key);
    if (known && at < known.until) return known.promise;
    const entry = { promise: make(key), until: at + ttlMs };
    this.entries.set(key, entry);
    entry.promise.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
    return entry.promise;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
