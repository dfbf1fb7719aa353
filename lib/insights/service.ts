import type { InsightCatalog } from './ports.js';
import { flagFigures, isoWeek, takeSnapshot, userFigures, type DailySnapshot } from './snapshot.js';
import type { SnapshotStore } from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * E14. Totals are read live; trends come from daily snapshots, taken by a scheduled function
 * in the cloud and at start and then daily locally. Until the first snapshot the trends are empty.
 */
export class InsightsService {
  constructor(
    private readonly catalog: InsightCatalog,
    private readonly snapshots: SnapshotStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Sums up the previous whole UTC day (its change events and SDK usage), so the daily run
   * shortly after midnight counts each day once.
   */
  async snapshot(): Promise<DailySnapshot> {
    const now = this.now();
    const dayEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const dayStart = new Date(dayEnd.getTime() - DAY_MS);
    const [users, features, projects, environments, dayEvents] = await Promise.all([
      this.catalog.users(), this.catalog.allFeatures(), this.catalog.projects(),
      this.catalog.environments(), this.catalog.eventsBetween(dayStart, dayEnd),
    ]);
    const since = features.reduce((earliest, f) => Math.min(earliest, Date.parse(f.createdAt)), dayStart.getTime());
    const [history, usage] = await Promise.all([
      this.catalog.eventsBetween(new Date(since), now),
      this.catalog.usage(dayStart.toISOString().slice(0, 10)),
    ]);
    const snapshot = takeSnapshot({ now, users, features, projects, environments, dayEvents, history, usage });
    await this.snapshots.save(snapshot);
    return snapshot;
  }

  async insights() {
    const now = this.now();
    const [users, features, snapshots] = await Promise.all([
      this.catalog.users(), this.catalog.allFeatures(), this.snapshots.list(),
    ]);
    const week = (date: string) => isoWeek(date);
    return {
      users: userFigures(users, now),
      flags: { total: flagFigures(features, now).total },
      userTrends: snapshots.map((s) => ({ date: s.date, ...s.users })),
      flagTrends: snapshots.map((s) => ({ date: s.date, ...s.flags })),
      projectFlagTrends: snapshots.flatMap((s) => s.projects.map((p) => ({ week: week(s.date), date: s.date, ...p }))),
      metricsSummaryTrends: snapshots.flatMap((s) => s.metrics.map((m) => ({ week: week(s.date), date: s.date, ...m }))),
      environmentTypeTrends: snapshots.flatMap((s) => s.environmentTypes.map((e) => ({ date: s.date, week: week(s.date), ...e }))),
    };
  }
}
