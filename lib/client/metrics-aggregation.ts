import * as z from 'zod';

/**
 * SDK usage on its way to the table (ADR 15): counts of one feature in one environment during
 * one UTC hour, and when it was last reported. Reports, the sums of a batch and what the store
 * stage could not write travel in the same shape, so every stage sums them the same way.
 * Pure: no I/O.
 */
export interface MetricsEntry {
  /** `yyyy-mm-ddThh` (UTC). */
  hour: string;
  environment: string;
  feature: string;
  yes: number;
  no: number;
  /** Evaluations per variant name. */
  variants: Record<string, number>;
  /** The applications that reported it, sorted, without repeats. */
  apps: string[];
  /** The latest time it was reported (ISO); last-seen is written from it. */
  seenAt: string;
}

/**
 * A name an SDK counted evaluations of that no flag of the token's scope has (Unleash's unknown
 * flags): which application reported it in which environment, and when it last did. The store
 * stage keeps those that are no flag of the instance at all (lib/unknown-flags).
 */
export interface UnknownFlagReport {
  name: string;
  appName: string;
  environment: string;
  /** ISO; the latest time it was reported. */
  seenAt: string;
}

/** What one message (or a batch of them) carries: usage counts and the unknown names reported. */
export interface MetricsBatch {
  entries: MetricsEntry[];
  unknown: UnknownFlagReport[];
}

/** SQS's largest message (and the local queue's): 256 KB. */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** Unleash deletes hourly metrics older than 48 hours (`clearMetrics(48)`); so do counters here, by TTL. */
export const HOURLY_RETENTION_HOURS = 48;

const HOUR_MS = 60 * 60 * 1000;

/** Sums entries per (hour, environment, feature): counts and variants added, apps joined, the latest time kept. */
export function sumEntries(entries: Iterable<MetricsEntry>): MetricsEntry[] {
  const sums = new Map<string, MetricsEntry>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.hour, entry.environment, entry.feature]);
    const sum = sums.get(key);
    if (!sum) {
      sums.set(key, { ...entry, variants: { ...entry.variants }, apps: [...new Set(entry.apps)].sort() });
      continue;
    }
    sum.yes += entry.yes;
    sum.no += entry.no;
    for (const [variant, count] of Object.entries(entry.variants)) sum.variants[variant] = (sum.variants[variant] ?? 0) + count;
    sum.apps = [...new Set([...sum.apps, ...entry.apps])].sort();
    if (entry.seenAt > sum.seenAt) sum.seenAt = entry.seenAt;
  }
  return [...sums.values()];
}

/** One report per (name, appName, environment), the latest time kept: retries and repeats collapse. */
export function latestUnknown(reports: Iterable<UnknownFlagReport>): UnknownFlagReport[] {
  const latest = new Map<string, UnknownFlagReport>();
  for (const report of reports) {
    const key = JSON.stringify([report.name, report.appName, report.environment]);
    const known = latest.get(key);
    if (!known || report.seenAt > known.seenAt) latest.set(key, report);
  }
  return [...latest.values()];
}

/** Whether an entry has anything to add to a counter (an entry may only say the feature was seen). */
export function hasCounts(entry: MetricsEntry): boolean {
  return entry.yes + entry.no > 0 || Object.values(entry.variants).some((count) => count > 0);
}

/** The latest report time per (feature, environment), over every hour. */
export function lastSeenOf(entries: Iterable<MetricsEntry>): Array<{ feature: string; environment: string; at: string }> {
  const latest = new Map<string, { feature: string; environment: string; at: string }>();
  for (const { feature, environment, seenAt } of entries) {
    const key = JSON.stringify([feature, environment]);
    const known = latest.get(key);
    if (!known || seenAt > known.at) latest.set(key, { feature, environment, at: seenAt });
  }
  return [...latest.values()];
}

/** When a counter of this hour may go (epoch seconds, DynamoDB's TTL unit): the hour's end plus the retention. */
export function counterExpiry(hour: string): number {
  return Math.floor((Date.parse(`${hour}:00:00.000Z`) + HOUR_MS + HOURLY_RETENTION_HOURS * HOUR_MS) / 1000);
}

// ── messages ────────────────────────────────────────────────────────────────
// Compact arrays, not objects: a report of 1,000 toggles stays far below a message's 256 KB.

type WireEntry = [string, string, string, number, number, Record<string, number>, string[], string];
type WireUnknown = [string, string, string, string];

const count = z.number().int().min(0);
const wireEntry = z.tuple([
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}$/), z.string().min(1), z.string().min(1), count, count,
  z.record(z.string(), count), z.array(z.string()), z.string(),
]);
const wireUnknown = z.tuple([z.string().min(1), z.string().min(1), z.string().min(1), z.string()]);
/** `u` (unknown names) is optional: messages queued before it existed hold counts only, and a reader without it ignores it. */
const wireMessage = z.object({ v: z.literal(1), e: z.array(z.unknown()), u: z.array(z.unknown()).optional() });

const toWire = (e: MetricsEntry): WireEntry => [e.hour, e.environment, e.feature, e.yes, e.no, e.variants, e.apps, e.seenAt];
const unknownToWire = (u: UnknownFlagReport): WireUnknown => [u.name, u.appName, u.environment, u.seenAt];

/**
 * The entries (and unknown names) as message bodies of at most `maxBytes` each, in order; an
 * entry never spans two. An entry alone over the limit cannot be queued: it is an error of the
 * caller's bounds (SDK_REPORT_LIMITS keep a report's names and counts far below it).
 */
export function encodeEntries(entries: MetricsEntry[], maxBytes: number = MAX_MESSAGE_BYTES, unknown: UnknownFlagReport[] = []): string[] {
  const parts = [
    ...entries.map((entry) => ({ list: 'e' as const, text: JSON.stringify(toWire(entry)) })),
    ...unknown.map((report) => ({ list: 'u' as const, text: JSON.stringify(unknownToWire(report)) })),
  ];
  const bodies: string[] = [];
  // The envelope with both lists and the comma between them.
  const envelope = Buffer.byteLength('{"v":1,"e":[],"u":[]}');
  let current = { e: [] as string[], u: [] as string[] };
  let size = envelope;
  const flush = () => {
    bodies.push(current.u.length === 0 ? `{"v":1,"e":[${current.e.join(',')}]}` : `{"v":1,"e":[${current.e.join(',')}],"u":[${current.u.join(',')}]}`);
    current = { e: [], u: [] };
    size = envelope;
  };
  for (const { list, text } of parts) {
    const bytes = Buffer.byteLength(text);
    if (envelope + bytes > maxBytes) throw new Error(`one metrics entry is ${bytes} bytes, over a message's ${maxBytes}`);
    const separator = current[list].length > 0 ? 1 : 0;
    if (size + bytes + separator > maxBytes) flush();
    size += bytes + (current[list].length > 0 ? 1 : 0);
    current[list].push(text);
  }
  if (current.e.length > 0 || current.u.length > 0) flush();
  return bodies;
}

/**
 * The entries and unknown names of a message body. What is neither is left out and counted,
 * never thrown: one unreadable message must not send its whole batch back to the queue again and again.
 */
export function decodeMessage(body: string): MetricsBatch & { unreadable: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { entries: [], unknown: [], unreadable: 1 };
  }
  const message = wireMessage.safeParse(parsed);
  if (!message.success) return { entries: [], unknown: [], unreadable: 1 };
  const entries: MetricsEntry[] = [];
  const unknown: UnknownFlagReport[] = [];
  let unreadable = 0;
  for (const raw of message.data.e) {
    const entry = wireEntry.safeParse(raw);
    if (!entry.success) {
      unreadable += 1;
      continue;
    }
    const [hour, environment, feature, yes, no, variants, apps, seenAt] = entry.data;
    entries.push({ hour, environment, feature, yes, no, variants, apps, seenAt });
  }
  for (const raw of message.data.u ?? []) {
    const report = wireUnknown.safeParse(raw);
    if (!report.success) {
      unreadable += 1;
      continue;
    }
    const [name, appName, environment, seenAt] = report.data;
    unknown.push({ name, appName, environment, seenAt });
  }
  return { entries, unknown, unreadable };
}
