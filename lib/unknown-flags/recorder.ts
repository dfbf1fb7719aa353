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
 * are (one Query of keys and expiries, read only when a batch brings a name this process has not
 * stored), and a name keeps at most `reportsPerName` pairs. A process writes each (name,
 * application, environment) at most once per UNKNOWN_RECHECK_INTERVAL_MS and looks at a name it
 * found to be a flag again only after it, so an SDK reporting the same typo costs one write per
 * interval. Two store stages running at once may each admit the room they read: the cap then
 * holds within one batch's new names.
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
    const flags = await this.history.existing(due.map((report) => report.name));
    for (const name of flags) this.flags.set(name, now);
    const byName = new Map<string, UnknownFlagReport[]>();
    for (const report of due.filter((report) => !flags.has(report.name))) byName.set(report.name, [...(byName.get(report.name) ?? []), report]);
    if (byName.size === 0) return;
    const nowSeconds = Math.floor(now / 1000);
    const expiries = await this.store.expiries();
    let room = this.bounds.names - [...expiries.values()].filter((expiry) => expiry > nowSeconds).length;
    let refused = 0;
    let full = 0;
    for (const [name, ofName] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (!startWhile()) break;
      const stored = ofName.slice(0, this.bounds.reportsPerName).map(({ appName, environment, seenAt }): StoredReport => ({ appName, environment, seenAt }));
      const expiresAt = Math.floor(Math.max(...stored.map((report) => Date.parse(report.seenAt)).filter(Number.isFinite), now) / 1000)
        + this.bounds.retentionHours * 60 * 60;
      const live = (expiries.get(name) ?? 0) > nowSeconds;
      if (live) {
        if (!(await this.store.addReports(name, stored, expiresAt, this.bounds.reportsPerName))) full += 1;
      } else if (room <= 0) {
        refused += 1;
      } else if (await this.store.create(name, stored, expiresAt, nowSeconds)) {
        room -= 1;
      } else if (!(await this.store.addReports(name, stored, expiresAt, this.bounds.reportsPerName))) {
        // Another writer stored it meanwhile and it is full.
        full += 1;
      }
      for (const report of ofName) this.written.set(reportKey(report), now);
    }
    if (refused > 0 || full > 0) {
      log.warn('unknown flags past their bounds not recorded', { newNamesRefused: refused, fullNames: full, bounds: this.bounds });
    }
  }
}

const reportKey = (report: UnknownFlagReport) => JSON.stringify([report.name, report.appName, report.environment]);

const recent = (at: number | undefined, now: number) => at !== undefined && now - at < UNKNOWN_RECHECK_INTERVAL_MS;
