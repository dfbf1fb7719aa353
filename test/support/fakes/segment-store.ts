import type { Segment } from '../../../lib/segments/model.js';
import type { EditableSegmentStore, SegmentDeleteOutcome, SegmentWriteOutcome } from '../../../lib/segments/store.js';
import { storedCopy } from './stored-copy.js';

/**
 * EditableSegmentStore in memory; test/support/contracts/segment-store.ts keeps it honest. As in
 * lib/segments/dynamo-store.ts a name is held by a guard of its own, a write checks its conditions
 * in the adapter's transaction order (the segment first, then the name), and `refCount` (the
 * feature store's count of strategies using a segment) stops a delete.
 */
export class FakeSegmentStore implements EditableSegmentStore {
  private readonly segments = new Map<number, Segment & { refCount?: number }>();
  /** Name to the id of the segment holding it. */
  private readonly names = new Map<string, number>();
  private lastId = 0;

  async list(): Promise<Segment[]> {
    return [...this.segments.keys()].sort((a, b) => a - b).map((id) => toSegment(this.segments.get(id)!));
  }

  async get(id: number): Promise<Segment | undefined> {
    const segment = this.segments.get(id);
    return segment === undefined ? undefined : toSegment(segment);
  }

  async nextId(): Promise<number> {
    this.lastId += 1;
    return this.lastId;
  }

  async nameTaken(name: string): Promise<boolean> {
    return this.names.has(name);
  }

  async insert(segment: Segment): Promise<'done' | 'name-taken'> {
    // The adapter's transaction answers 'name-taken' whichever of its two conditions failed.
    if (this.names.has(segment.name) || this.segments.has(segment.id)) return 'name-taken';
    this.names.set(segment.name, segment.id);
    this.segments.set(segment.id, storedCopy(segment));
    return 'done';
  }

  async replace(before: Segment, after: Segment): Promise<SegmentWriteOutcome> {
    const current = this.segments.get(before.id);
    if (current === undefined) return 'missing';
    if (current.name !== before.name) return 'changed';
    const renamed = before.name !== after.name;
    if (renamed && this.names.has(after.name)) return 'name-taken';
    const { id: _id, createdAt: _createdAt, createdBy: _createdBy, ...changed } = storedCopy(after);
    this.segments.set(before.id, { ...current, ...changed });
    if (renamed) {
      this.names.set(after.name, after.id);
      this.names.delete(before.name);
    }
    return 'done';
  }

  async delete(segment: Segment): Promise<SegmentDeleteOutcome> {
    const current = this.segments.get(segment.id);
    if (current === undefined) return 'missing';
    if ((current.refCount ?? 0) > 0) return 'in-use';
    if (current.name !== segment.name) return 'changed';
    this.segments.delete(segment.id);
    this.names.delete(segment.name);
    return 'done';
  }

  /**
   * What the feature store does in a feature's transaction when a strategy starts or stops
   * using the segment: moves its `refCount` by `by`.
   */
  async putInUse(id: number, by = 1): Promise<void> {
    const segment = this.segments.get(id);
    if (segment !== undefined) segment.refCount = (segment.refCount ?? 0) + by;
  }
}

function toSegment(stored: Segment & { refCount?: number }): Segment {
  const { refCount: _refCount, ...segment } = storedCopy(stored);
  return segment;
}
