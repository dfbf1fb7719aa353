import type { RevisionState } from '../revision.js';
import { outsideRequest } from '../request-deadline.js';

/** The revision item. */
export interface RevisionReader {
  /** Strongly consistent, so a read after an acknowledged write sees that write. */
  read(): Promise<RevisionState>;
}

export interface RevisionClockOptions {
  /** How long a read revision is trusted; 0 reads it on every call. */
  checkIntervalMs: number;
  now?: () => number;
}

interface Reading {
  promise: Promise<RevisionState>;
  startedAt: number;
  /** The local-write generation the read began in: a later local write makes it too old. */
  generation: number;
}

/**
 * The SDK path's view of the revision (DESIGN §3, ADR 9). It reads the revision item at most
 * once per interval, shared by every poll in that interval, and re-reads before the interval
 * is up when this process has written (same-process read-after-write) or when a caller has
 * already seen a newer revision elsewhere (monotonic reads across containers).
 */
export class RevisionClock {
  private reading: Reading | undefined;
  private generation = 0;
  private readonly now: () => number;

  constructor(
    private readonly reader: RevisionReader,
    private readonly options: RevisionClockOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Forgets what was read: the next call reads again. Called after this process's own writes. */
  invalidate(): void {
    this.generation += 1;
  }

  /**
   * The current revision, at least `atLeast` when the table holds that much. A read that began
   * within the interval, after this process's last write, is reused, even while in flight.
   */
  async current(atLeast = 0): Promise<number> {
    return (await this.state(atLeast)).revision;
  }

  /** The whole revision item as `current` reads it: the token-change counter rides along. */
  async state(atLeast = 0): Promise<RevisionState> {
    const shared = this.usableReading();
    if (shared) {
      const state = await shared.promise;
      if (state.revision >= atLeast) return state;
    }
    // A caller that names a revision the table does not hold (a forged or foreign ETag) gets
    // what the fresh read says: one read per such poll, never a loop.
    return this.read().promise;
  }

  /** A new read whatever the interval: for admin reads, which must see every write acknowledged before them. */
  async fresh(): Promise<RevisionState> {
    return this.read().promise;
  }

  private usableReading(): Reading | undefined {
    const reading = this.reading;
    if (!reading || this.options.checkIntervalMs <= 0) return undefined;
    if (reading.generation !== this.generation) return undefined;
    return this.now() - reading.startedAt < this.options.checkIntervalMs ? reading : undefined;
  }

  private read(): Reading {
    // Shared by every caller within the interval, SDK polls included: started as no request's,
    // so the deadline of the request that happened to start it stops none of them.
    const reading: Reading = { promise: outsideRequest(() => this.reader.read()), startedAt: this.now(), generation: this.generation };
    this.reading = reading;
    // A failed read is not remembered: the next poll tries again rather than replaying the error.
    reading.promise.catch(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    return reading;
  }
}
