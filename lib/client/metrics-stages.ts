import { log } from '../log.js';
import { FUNCTION_TIMEOUT_MS, WRITE_BUDGET_MS } from '../time-budget.js';
import {
  decodeMessage, encodeEntries, hasCounts, lastSeenOf, latestUnknown, sumEntries, type MetricsBatch, type MetricsEntry, type UnknownFlagReport,
} from './metrics-aggregation.js';
import type { MetricsLifecycle } from './metrics-lifecycle.js';
import type { HourlyCount, MetricsStore, SeenFeature } from './store.js';

/**
 * Where SDK usage waits to be summed (ADR 15): an SQS queue in the cloud
 * (`metrics-sqs-queue.ts`), the local queue with SQS's rules under `npm start`
 * (`local/metrics-queue.ts`). A send that resolves is stored by the queue; one that
 * rejects stored nothing.
 */
export interface MetricsQueue {
  send(body: string): Promise<void>;
}

/** Last-seen changes at most once per feature and environment in this time (Unleash writes it every 30 s). */
export const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000;

/**
 * Where the store stage keeps the names reported that are no flag (lib/unknown-flags). What it
 * could not record is dropped, never sent back: the next report of the name records it again.
 */
export interface UnknownFlagSink {
  record(reports: UnknownFlagReport[], startWhile: () => boolean): Promise<void>;
}

/** Sends entries (and unknown names) as messages of at most a queue message's size. */
export async function sendEntries(queue: MetricsQueue, entries: MetricsEntry[], unknown: UnknownFlagReport[] = []): Promise<number> {
  const bodies = encodeEntries(entries, undefined, unknown);
  for (const body of bodies) await queue.send(body);
  return bodies.length;
}

/** The entries and unknown names of a batch of message bodies, unreadable ones left out with a warning. */
export function batchOf(bodies: string[]): MetricsBatch {
  const entries: MetricsEntry[] = [];
  const unknown: UnknownFlagReport[] = [];
  let unreadable = 0;
  for (const body of bodies) {
    const decoded = decodeMessage(body);
    entries.push(...decoded.entries);
    unknown.push(...decoded.unknown);
    unreadable += decoded.unreadable;
  }
  if (unreadable > 0) log.warn('unreadable metrics messages or entries left out', { unreadable });
  return { entries, unknown };
}

/**
 * The sum stage: a batch of reports becomes one message of sums (more when it passes a message's
 * size) on the next queue. It resolves only once they are queued, so the batch is deleted from its
 * queue only then; a failure sends the whole batch back (its sums may then be counted twice, ADR 15).
 */
export async function sumStage(bodies: string[], next: MetricsQueue): Promise<void> {
  const { entries, unknown } = batchOf(bodies);
  await sendEntries(next, sumEntries(entries), latestUnknown(unknown));
}

export interface MetricsWriterOptions {
  /** Where what could not be written goes back to; without it (no queue) it is dropped and logged. */
  requeue?: MetricsQueue | undefined;
  lastSeenIntervalMs?: number;
  /** The process clock, for the last-seen memory. */
  now?: () => number;
  /** Moves flags' lifecycle stages from the counts written (Unleash's pre-live and live). */
  lifecycle?: MetricsLifecycle | undefined;
  /** Keeps the names reported that are no flag (Unleash's unknown flags); without it they are dropped. */
  unknownFlags?: UnknownFlagSink | undefined;
}

/**
 * The store stage: one counter update per (feature, environment, hour) of a batch and last-seen
 * at most once per interval. What it could not write in time, or failed to, it sends back to its
 * own queue and succeeds, so a redelivered batch never adds twice what was written.
 */
export class MetricsWriter {
  /** When this process last wrote each feature's last-seen, so it asks DynamoDB once per interval. */
  private readonly marked = new Map<string, number>();
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: MetricsStore,
    private readonly options: MetricsWriterOptions = {},
  ) {
    this.intervalMs = options.lastSeenIntervalMs ?? LAST_SEEN_INTERVAL_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * Writes a batch's entries, then the unknown names it carries; `startWhile` stops new writes
   * at the caller's deadline.
   */
  async write(entries: MetricsEntry[], startWhile: () => boolean = () => true, unknown: UnknownFlagReport[] = []): Promise<void> {
    const sums = sumEntries(entries);
    const counted = sums.filter(hasCounts);
    const counts: HourlyCount[] = counted.map(({ hour, feature, environment, yes, no, variants, apps }) => ({
      hour, feature, environment, yes, no, variants, apps,
    }));
    const now = this.now();
    const seen: SeenFeature[] = lastSeenOf(sums)
      .filter(({ feature, environment }) => now - (this.marked.get(seenKey(feature, environment)) ?? -Infinity) >= this.intervalMs)
      .map(({ feature, environment, at }) => ({ feature, environment, at }));
    const [countsLeft, seenLeft] = await Promise.all([
      this.store.addHourlyCounts(counts, startWhile),
      this.store.markSeen(seen, { startWhile, intervalMs: this.intervalMs }),
    ]);
    const countsUnwritten = new Set(countsLeft.left);
    const written = counted.filter((_, index) => !countsUnwritten.has(counts[index] as HourlyCount));
    await this.options.lifecycle?.record(written, startWhile);
    await this.recordUnknown(unknown, startWhile);
    const unmarked = new Set(seenLeft.left.map(({ feature, environment }) => seenKey(feature, environment)));
    for (const { feature, environment } of seen) {
      if (!unmarked.has(seenKey(feature, environment))) this.marked.set(seenKey(feature, environment), now);
    }
    const left = [...countsLeft.left.map(countEntry(sums)), ...seenLeft.left.map(seenEntry)];
    if (left.length === 0) return;
    const failure = countsLeft.failure ?? seenLeft.failure;
    // Nothing written and a failure: the batch fails and comes back as it was (after enough
    // receives, to the dead-letter queue), rather than circling as new messages forever.
    if (failure !== undefined && left.length === counts.length + seen.length) throw failure;
    if (!this.options.requeue) {
      log.warn('metrics not stored in time; the rest dropped', { written: counts.length + seen.length - left.length, dropped: left.length });
      if (failure !== undefined) throw failure;
      return;
    }
    // Sent back as sums of their own: the next batch adds them, and nothing written is written again.
    const messages = await sendEntries(this.options.requeue, left);
    log.info('metrics not stored in time sent back to the queue', { left: left.length, messages, failure: failure === undefined ? undefined : String(failure) });
  }

  /** Unknown names are the admin UI's business, not the counters': a failure is logged, never the batch's. */
  private async recordUnknown(unknown: UnknownFlagReport[], startWhile: () => boolean): Promise<void> {
    if (unknown.length === 0 || !this.options.unknownFlags) return;
    try {
      await this.options.unknownFlags.record(latestUnknown(unknown), startWhile);
    } catch (error) {
      log.warn('unknown flags reported not recorded', { reports: unknown.length, error: String(error) });
    }
  }
}

/**
 * No queue (a test or `npm run invoke` building the services alone): each report goes through
 * both stages at once, so what it counts is readable as soon as it is answered.
 */
export function directMetricsQueue(writer: MetricsWriter, writeWindowMs: number = DIRECT_WRITE_WINDOW_MS): MetricsQueue {
  return {
    send: async (body) => {
      const until = performance.now() + writeWindowMs;
      const { entries, unknown } = batchOf([body]);
      await writer.write(entries, () => performance.now() < until, unknown);
    },
  };
}

/**
 * How long a report written in the request may go on starting writes: the admin API's rule (a
 * write starts only while WRITE_BUDGET_MS of the function's time is left, lib/time-budget.ts),
 * so a started write ends before the function has to answer.
 */
export const DIRECT_WRITE_WINDOW_MS = FUNCTION_TIMEOUT_MS - WRITE_BUDGET_MS;

const seenKey = (feature: string, environment: string) => JSON.stringify([feature, environment]);

/** A counter left unwritten, as an entry again (its time seen is the latest of its sum). */
function countEntry(sums: MetricsEntry[]): (count: HourlyCount) => MetricsEntry {
  const seenAt = new Map(sums.map((sum) => [JSON.stringify([sum.hour, sum.environment, sum.feature]), sum.seenAt]));
  return (count) => ({
    hour: count.hour, environment: count.environment, feature: count.feature, yes: count.yes, no: count.no,
    variants: count.variants ?? {}, apps: count.apps ?? [],
    seenAt: seenAt.get(JSON.stringify([count.hour, count.environment, count.feature])) ?? new Date().toISOString(),
  });
}

/** A last-seen left unwritten, as an entry that counts nothing. */
function seenEntry(seen: SeenFeature): MetricsEntry {
  return { hour: seen.at.slice(0, 13), environment: seen.environment, feature: seen.feature, yes: 0, no: 0, variants: {}, apps: [], seenAt: seen.at };
}
