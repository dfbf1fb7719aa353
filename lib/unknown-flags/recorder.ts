import type { UnknownFlagReport } from '../client/metrics-aggregation.js';
import type { UnknownFlagSink } from '../client/metrics-stages.js';
import { log } from '../log.js';
import { UNKNOWN_FLAG_LIMITS, type StoredReport, type UnknownFlagBounds } from './model.js';
import type { FlagHistory } from './ports.js';
import type { UnknownFlagStore } from './store.js';

/** How long this process trusts what it wrote or learnt of a name (Unleash flushes its unknown flags every 2 minutes). */
export const UNKNOWN_RECHECK_INTERVAL_MS = 5 * 60 * 1000;

/** How many names and reports a process remembers before it forgets them all (and looks at each once more). */
const MAX_REMEMBERED = 50_000;

/**
 * The metrics store stage's keeper of unknown flags: of the names a batch reports that no flag
 * of the token's scope has, those that are no flag at all (one keys-only read per 100 names) are
 * stored, one UpdateItem per name. A new name is stored only while fewer than `names` live names
 * are (one Query of the partition's keys and expiries per batch with a name due, first, so that
 * with no room left only names already stored are looked up among the flags), and a name keeps
 * at most `reportsPerName` pairs (a full one is read once more, to drop its lapsed pairs). A
 * process writes each (name, application, environment) at most once per
 * UNKNOWN_RECHECK_INTERVAL_MS and looks at a name it found to be a flag again only after it, so an
 * SDK reporting the same typo costs one write per interval. Two store stages running at once may
 * each admit the room they read: the cap may then be passed by what one batch admits (the store
 * stage runs at most two at once, infra/constructs/metrics-pipeline.ts).
 */
export class UnknownFlagRecorder implements UnknownFlagSink {
  private readonly written = new Map<string, number>();
  private readonly flags = new Map<string, number>();

  constructor(
    private readonly store: UnknownFlagStore,
    private readonly history: FlagHistory,
    private readonly bounds: UnknownFlagBounds = UNKNOWN_FLAG_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  async record(reports: UnknownFlagReport[], startWhile: () => boolean = () => true): Promise<void> {
    const now = this.now();
    if (this.written.size > MAX_REMEMBERED) this.written.clear();
    if (this.flags.size > MAX_REMEMBERED) this.flags.clear();
    const due = reports.filter((report) => recent(this.written.get(reportKey(report)), now) === false && recent(this.flags.get(report.name), now) === false);
    if (due.length === 0 || !startWhile()) return;
    const nowSeconds = Math.floor(now / 1000);
    const expiries = await this.store.expiries();
    const stored = (name: string) => (expiries.get(name) ?? 0) > nowSeconds;
    let room = this.bounds.names - [...expiries.values()].filter((expiry) => expiry > nowSeconds).length;
    // With the cap reached a name not stored is refused whether or not it is a flag, so only the
    // stored ones are looked up: names made up through a public token cost no read of the features then.
    const outOfRoom = room <= 0 ? due.filter((report) => !stored(report.name)) : [];
    const candidates = room <= 0 ? due.filter((report) => stored(report.name)) : due;
    const flags = candidates.length > 0 ? await this.history.existing(candidates.map((report) => report.name)) : new Set<string>();
    for (const name of flags) this.flags.set(name, now);
    for (const report of outOfRoom) this.written.set(reportKey(report), now);
    let refused = new Set(outOfRoom.map((report) => report.name)).size;
    const byName = new Map<string, UnknownFlagReport[]>();
    for (const report of candidates.filter((report) => !flags.has(report.name))) byName.set(report.name, [...(byName.get(report.name) ?? []), report]);
    let full = 0;
    for (const [name, ofName] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!startWhile()) break;
      const toStore = ofName.slice(0, this.bounds.reportsPerName).map(({ appName, environment, seenAt }): StoredReport => ({ appName, environment, seenAt }));
      const expiresAt = Math.floor(Math.max(...toStore.map((report) => Date.parse(report.seenAt)).filter(Number.isFinite), now) / 1000)
        + this.bounds.retentionHours * 60 * 60;
      if (stored(name)) {
        if (!(await this.add(name, toStore, expiresAt, now))) full += 1;
      } else if (room <= 0) {
        refused += 1;
      } else if (await this.store.create(name, toStore, expiresAt, nowSeconds)) {
        room -= 1;
      } else if (!(await this.add(name, toStore, expiresAt, now))) {
        // Another writer stored it meanwhile and it is full.
        full += 1;
      }
      for (const report of ofName) this.written.set(reportKey(report), now);
    }
    if (refused > 0 || full > 0) {
      log.warn('unknown flags past their bounds not recorded', { newNamesRefused: refused, fullNames: full, bounds: this.bounds });
    }
  }

  /**
   * Sets a stored name's reports; when it is full, the pairs it holds lapsed make room (read
   * first, removed in the same write) and the pairs it holds are refreshed, so a name full of
   * pairs that stopped reporting does not keep new ones out, nor a full one its own newer times.
   * False when a new pair had to be left out.
   */
  private async add(name: string, reports: StoredReport[], expiresAt: number, now: number): Promise<boolean> {
    if (await this.store.addReports(name, reports, expiresAt, this.bounds.reportsPerName)) return true;
    const held = await this.store.reportsOf(name);
    if (!held) return false;
    const since = new Date(now - this.bounds.retentionHours * 60 * 60 * 1000).toISOString();
    const pairKey = (report: StoredReport) => JSON.stringify([report.appName, report.environment]);
    const setting = new Set(reports.map(pairKey));
    const heldPairs = new Set(held.map(pairKey));
    const remove = held.filter((report) => report.seenAt <= since && !setting.has(pairKey(report)));
    let room = this.bounds.reportsPerName - (held.length - remove.length);
    const set = reports.filter((report) => heldPairs.has(pairKey(report)) || (room-- > 0));
    if (set.length === 0 && remove.length === 0) return false;
    const written = await this.store.rewriteReports(name, { remove, set, expiresAt, sizeRead: held.length });
    return written && set.length === reports.length;
  }
}

const reportKey = (report: UnknownFlagReport) => JSON.stringify([report.name, report.appName, report.environment]);

const recent = (at: number | undefined, now: number) => at !== undefined && now - at < UNKNOWN_RECHECK_INTERVAL_MS;
