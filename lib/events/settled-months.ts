import type { ChangeEvent } from './model.js';
import type { CountedEventReader, CountedEvents, EventReader } from './store.js';
import { outsideRequest } from '../request-deadline.js';

/**
 * How long after its `createdAt` an event may still appear: the event is written in its
 * change's transaction, which commits within the request that made it (API Gateway ends every
 * request within 30 s; the store's own deadlines are shorter), with room for clocks of
 * different containers that disagree.
 */
export const SETTLE_MS = 5 * 60_000;
/** Events kept per container at most (a few hundred bytes each): past that, months are read as before. */
export const MAX_KEPT_EVENTS = 200_000;

interface KeptMonth {
  /** Every event of the month created before `settledBefore`, oldest first. */
  events: ChangeEvent[];
  settledBefore: number;
  /** How many of `events` their transactions counted (ADR 26). */
  counted: number;
  /**
   * The month's events from `settledBefore` on as the last read found them, oldest first, and
   * whether the month's counters can tell that nothing joined them since (the read came when
   * every writer counted).
   */
  fresh?: { events: ChangeEvent[]; countedFlags: boolean[]; counted: number; checkable: boolean } | undefined;
}

/**
 * The event log's reads by time, each month's settled events kept in the container. Events are
 * never changed or removed once written, and one created more than SETTLE_MS ago is in the
 * table for good, so a month read once needs reading again only from where it was settled: the
 * event log's default search (the last month, newest first, 25 a page, with the total) then
 * reads the last few minutes' events instead of the whole month, some thousand items a Query
 * page, on every page and every refresh of the admin UI. Reads by feature go straight to the
 * store (one feature's partition of the index, small).
 */
export class SettledMonths implements EventReader {
  private readonly months = new Map<string, KeptMonth>();
  /** The read of each month in flight, by the month's first instant: the next caller of that month waits for it. */
  private readonly reading = new Map<string, Promise<unknown>>();
  private kept = 0;
  private lateCommits = 0;

  constructor(
    private readonly store: EventReader,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async between(from: Date, to: Date): Promise<ChangeEvent[]> {
    const events: ChangeEvent[] = [];
    // One month after another, as the store reads them: a long window is not a burst of Queries.
    for (const [start, end] of monthsOverlapping(from, to)) {
      const month = await this.month(start, end);
      const fromIso = from.toISOString();
      const toIso = to.toISOString();
      events.push(...month.filter((event) => event.createdAt >= fromIso && event.createdAt < toIso));
    }
    return events;
  }

  /**
   * How many times a month was read again whole because a counted event had committed after its
   * createdAt settled: a reader that keeps counts of its own from settled events (the project
   * activity) tallies anew when this changes, as the event is older than where it reads from.
   */
  lateCommitsFound(): number {
    return this.lateCommits;
  }

  ofFeature(featureName: string, from: Date, to: Date): Promise<ChangeEvent[]> {
    return this.store.ofFeature(featureName, from, to);
  }

  /**
   * Newest first, month after month back from `to`. A kept month comes from memory (after its
   * few fresh events); any other month's first page comes straight from the store, newest first,
   * so a caller that wants the newest few reads a page of them, not the month. A caller that
   * wants more of that month gets the rest from the month read whole and kept, as a read by time
   * keeps it: a quiet project's card, whose events lie under thousands of others, reads back
   * through them once per container, not on every visit.
   */
  async *newestFirst(from: Date, to: Date): AsyncGenerator<ChangeEvent[]> {
    const fromIso = from.toISOString();
    const toIso = to.toISOString();
    const inWindow = (event: ChangeEvent) => event.createdAt >= fromIso && event.createdAt < toIso;
    for (const [start, end] of monthsOverlapping(from, to).reverse()) {
      if (!this.months.has(start.toISOString())) {
        const settledBefore = this.now().getTime() - SETTLE_MS;
        const pages = this.store.newestFirst(start, end)[Symbol.asyncIterator]();
        const first = await pages.next();
        await pages.return?.();
        if (first.done) {
          // Nothing in the month at all: kept empty, so it is not asked again.
          this.keepEmptyMonth(start, settledBefore);
          continue;
        }
        const page = first.value.filter(inWindow);
        if (page.length > 0) yield page;
        // The caller wants more: what is older than the page, from the month read whole.
        const last = first.value.at(-1) as ChangeEvent;
        const older = (await this.month(start, end)).filter((event) => inWindow(event) && isOlder(event, last)).reverse();
        if (older.length > 0) yield older;
        continue;
      }
      const events = (await this.month(start, end)).filter(inWindow).reverse();
      if (events.length > 0) yield events;
    }
  }

  /** A month found empty, kept as read at `settledBefore`, unless another read kept it meanwhile. */
  private keepEmptyMonth(start: Date, settledBefore: number): void {
    const key = start.toISOString();
    if (!this.months.has(key)) this.months.set(key, { events: [], settledBefore, counted: 0 });
  }

  /**
   * The month's events up to now: what is kept, and what the store holds past it. One read of a
   * month at a time: a caller that comes while another reads the month waits for it and then
   * reads only what is past what it kept. A cold container's project page asks for the same
   * months at once (its header's two months, its status's year), and each read the current month
   * whole, thousands of events, the same ones twice.
   */
  private async month(start: Date, end: Date): Promise<ChangeEvent[]> {
    const key = start.toISOString();
    const before = this.reading.get(key);
    // Waited for by every caller of the month that comes meanwhile: read as no request's, so the
    // deadline of the request that started it fails none of theirs.
    const read = outsideRequest(async () => {
      // Whether the earlier read failed or not, this one reads what it needs.
      await before?.catch(() => undefined);
      return this.readMonth(key, start, end);
    });
    this.reading.set(key, read);
    try {
      return await read;
    } finally {
      if (this.reading.get(key) === read) this.reading.delete(key);
    }
  }

  /**
   * The month's events now. A month with no unsettled part is memory alone. Otherwise, when the
   * store counts events (ADR 26), the month's counters are read first (one Query of its
   * shards): if they sum to the counted events held, every committed event is held (the held set
   * only grows from reads of the table, and counters commit with their events, so equal counts
   * mean equal sets) and nothing is queried. Else the part past the settled events is read again as before; if
   * it still holds fewer counted events than the counters say, a strongly consistent read
   * follows, and if even that misses some, the whole month: a counted event whose createdAt was
   * older than SETTLE_MS when it committed is found too.
   */
  private async readMonth(key: string, start: Date, end: Date): Promise<ChangeEvent[]> {
    const kept = this.months.get(key);
    const settledBefore = this.now().getTime() - SETTLE_MS;
    const readFrom = kept ? new Date(Math.max(start.getTime(), kept.settledBefore)) : start;
    if (readFrom >= end) return kept?.events ?? [];
    const counts = isCounting(this.store) && end.getTime() > settledBefore ? await this.store.writtenCount(key.slice(0, 7)) : undefined;
    const written = counts?.written;
    if (kept?.fresh?.checkable && written === kept.counted + kept.fresh.counted) {
      return this.answerHeld(key, kept, settledBefore);
    }
    // Counters are trusted for reads made SETTLE_MS after the month's counting began: no writer
    // that does not count commits any more (ADR 26).
    const checkable = counts?.countingSince !== undefined && settledBefore > counts.countingSince;
    let read = await this.readStore(readFrom, end);
    if (written !== undefined && (kept?.counted ?? 0) + countOf(read) < written) read = await this.readStore(readFrom, end, true);
    if (written !== undefined && kept && readFrom > start && kept.counted + countOf(read) < written) {
      // A counted event the settled part lacks: created before it settled, committed after. Read the month again, whole.
      this.forget(key);
      this.lateCommits += 1;
      return this.readMonth(key, start, end);
    }
    return this.keep(key, start, kept, read, settledBefore, checkable);
  }

  /** The store's events of [from, to), with whether each was counted (none when the store does not count). */
  private async readStore(from: Date, to: Date, consistent = false): Promise<CountedEvents> {
    if (isCounting(this.store)) return this.store.betweenCounted(from, to, consistent);
    const events = await this.store.between(from, to);
    return { events, counted: events.map(() => false) };
  }

  /** Nothing committed since the last read: what is held, with the events settled since moved to the settled part. */
  private answerHeld(key: string, kept: KeptMonth, settledBefore: number): ChangeEvent[] {
    const fresh = kept.fresh as NonNullable<KeptMonth['fresh']>;
    const answer = [...kept.events, ...fresh.events];
    const settledIso = new Date(settledBefore).toISOString();
    const firstFresh = fresh.events.findIndex((event) => event.createdAt >= settledIso);
    const moved = firstFresh < 0 ? fresh.events.length : firstFresh;
    if (settledBefore > kept.settledBefore) {
      this.months.set(key, {
        events: moved > 0 ? answer.slice(0, kept.events.length + moved) : kept.events,
        settledBefore,
        counted: kept.counted + fresh.countedFlags.slice(0, moved).filter(Boolean).length,
        fresh: heldFresh(fresh.events.slice(moved), fresh.countedFlags.slice(moved), fresh.checkable),
      });
    }
    return answer;
  }

  /** Keeps what was read past the settled part, when there is room, and answers the month. */
  private keep(key: string, start: Date, kept: KeptMonth | undefined, read: CountedEvents, settledBefore: number, checkable: boolean): ChangeEvent[] {
    const earlier = kept?.events ?? [];
    const settledIso = new Date(settledBefore).toISOString();
    // The store answers in the order of the sort keys, oldest first; kept events and fresh ones
    // do not overlap: the fresh ones were read from where the kept ones end.
    const firstFresh = read.events.findIndex((event) => event.createdAt >= settledIso);
    const settling = firstFresh < 0 ? read.events.length : firstFresh;
    const answer = [...earlier, ...read.events];
    const heldBefore = kept ? kept.events.length + (kept.fresh?.events.length ?? 0) : 0;
    if (kept || this.kept + answer.length <= MAX_KEPT_EVENTS) {
      this.months.set(key, {
        events: answer.slice(0, earlier.length + settling),
        settledBefore: Math.max(settledBefore, kept?.settledBefore ?? start.getTime()),
        counted: (kept?.counted ?? 0) + read.counted.slice(0, settling).filter(Boolean).length,
        fresh: heldFresh(read.events.slice(settling), read.counted.slice(settling), checkable),
      });
      this.kept += answer.length - heldBefore;
    }
    return answer;
  }

  private forget(key: string): void {
    const kept = this.months.get(key);
    if (!kept) return;
    this.kept -= kept.events.length + (kept.fresh?.events.length ?? 0);
    this.months.delete(key);
  }
}

function isCounting(store: EventReader): store is CountedEventReader {
  return 'writtenCount' in store && 'betweenCounted' in store;
}

function heldFresh(events: ChangeEvent[], countedFlags: boolean[], checkable: boolean): NonNullable<KeptMonth['fresh']> {
  return { events, countedFlags, counted: countedFlags.filter(Boolean).length, checkable };
}

function countOf(read: CountedEvents): number {
  return read.counted.filter(Boolean).length;
}

/** [first instant, first instant of the next month) of every month overlapping [from, to). */
function monthsOverlapping(from: Date, to: Date): Array<[Date, Date]> {
  const months: Array<[Date, Date]> = [];
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  let start = new Date(new Date(0).setUTCFullYear(from.getUTCFullYear(), from.getUTCMonth(), 1));
  while (start < to) {
    const end = new Date(new Date(0).setUTCFullYear(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
    months.push([start, end]);
    start = end;
  }
  return months;
}

/** Whether `event` comes before `than` in the order of the sort keys (`<createdAt>#<id>`). */
function isOlder(event: ChangeEvent, than: ChangeEvent): boolean {
  return event.createdAt < than.createdAt || (event.createdAt === than.createdAt && event.id < than.id);
}
