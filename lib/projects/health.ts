import { expectedLifetimeDays, type Feature } from '../features/model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Not stale, not archived, and older than its type's expected lifetime. */
export function isPotentiallyStale(feature: Feature, now: Date): boolean {
  const lifetime = expectedLifetimeDays(feature.type);
  if (!lifetime || feature.stale || feature.archived) return false;
  return now.getTime() > Date.parse(feature.createdAt) + lifetime * DAY_MS;
}

/**
 * Project health (§6.2) over the project's non-archived features: 100 minus the stale and the
 * potentially stale shares. Unleash stores it hourly; computing it on read gives the same
 * number without a scheduled job.
 */
export function projectHealth(features: Feature[], now: Date): number {
  const active = features.filter((feature) => !feature.archived);
  if (active.length === 0) return 100;
  const stale = active.filter((feature) => feature.stale).length;
  const potentiallyStale = active.filter((feature) => isPotentiallyStale(feature, now)).length;
  return Math.round(100 - (stale / active.length) * 100 - (potentiallyStale / active.length) * 100);
}
