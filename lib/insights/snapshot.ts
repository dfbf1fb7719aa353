import type { Environment } from '../environments/model.js';
import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import { isPotentiallyStale, projectHealth } from '../projects/health.js';
import type { Project } from '../projects/model.js';
import { averageDaysToProduction } from './time-to-production.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Users seen within this many days count as active. */
export const ACTIVE_USER_DAYS = 30;

/** Yes/no counts of one feature in one environment during one hour, with the apps that reported them. */
export interface UsageCount {
  feature: string;
  environment: string;
  yes: number;
  no: number;
  apps?: string[] | undefined;
}

export interface SnapshotInput {
  now: Date;
  users: Array<{ seenAt: string | null }>;
  features: readonly Feature[];
  projects: Project[];
  environments: Environment[];
  /** Change events of the previous UTC day, oldest first. */
  dayEvents: ChangeEvent[];
  /** Every change event since the oldest feature was created (time to production). */
  history: ChangeEvent[];
  /** SDK usage counts of the previous UTC day. */
  usage: UsageCount[];
}

/** One day's figures, from which the insight trends are drawn. */
export type DailySnapshot = ReturnType<typeof takeSnapshot>;

export function userFigures(users: Array<{ seenAt: string | null }>, now: Date) {
  const since = now.getTime() - ACTIVE_USER_DAYS * DAY_MS;
  const active = users.filter((user) => user.seenAt !== null && Date.parse(user.seenAt) >= since).length;
  return { total: users.length, active, inactive: users.length - active };
}

export function flagFigures(features: readonly Feature[], now: Date) {
  const live = features.filter((feature) => !feature.archived);
  const stale = live.filter((feature) => feature.stale).length;
  const potentiallyStale = live.filter((feature) => isPotentiallyStale(feature, now)).length;
  return { total: live.length, active: live.length - stale - potentiallyStale, stale, potentiallyStale };
}

/** Computes a day's snapshot from what is stored; the caller keeps it under its date. */
export function takeSnapshot(input: SnapshotInput) {
  const { now } = input;
  const production = new Set(input.environments.filter((e) => e.type === 'production').map((e) => e.name));
  const typeOf = new Map(input.environments.map((e) => [e.name, e.type]));
  const projectOf = new Map(input.features.map((f) => [f.name, f.project]));
  const users = userFigures(input.users, now);
  return {
    date: now.toISOString().slice(0, 10),
    takenAt: now.toISOString(),
    users,
    flags: flagFigures(input.features, now),
    projects: input.projects.map((project) => {
      const own = input.features.filter((feature) => feature.project === project.id);
      return {
        project: project.id,
        ...flagFigures(own, now),
        health: projectHealth(own, now),
        timeToProduction: averageDaysToProduction(own, input.history, production),
        users: users.total,
      };
    }),
    metrics: input.projects.map((project) => {
      const counts = input.usage.filter((count) => projectOf.get(count.feature) === project.id);
      const yes = counts.reduce((sum, count) => sum + count.yes, 0);
      const no = counts.reduce((sum, count) => sum + count.no, 0);
      return {
        project: project.id, totalRequests: yes + no, totalYes: yes, totalNo: no,
        totalApps: new Set(counts.flatMap((count) => count.apps ?? [])).size,
        totalFlags: new Set(counts.map((count) => count.feature)).size,
        totalEnvironments: new Set(counts.map((count) => count.environment)).size,
      };
    }),
    environmentTypes: environmentTypeUpdates(input.dayEvents, typeOf),
  };
}

/** Feature changes per environment type, read from the `<what>:<environment>` change labels. */
function environmentTypeUpdates(events: ChangeEvent[], typeOf: Map<string, string>) {
  const totals = new Map<string, number>();
  for (const event of events) {
    const types = new Set((event.changes ?? []).filter((c) => c.includes(':')).map((c) => typeOf.get(c.split(':')[1] ?? '')));
    for (const type of types) if (type) totals.set(type, (totals.get(type) ?? 0) + 1);
  }
  return [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([environmentType, totalUpdates]) => ({ environmentType, totalUpdates }));
}

/** ISO 8601 week of a date, as `yyyy-ww`. */
export function isoWeek(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((day.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${day.getUTCFullYear()}-${String(week).padStart(2, '0')}`;
}
