import type { Feature } from '../features/model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Expected lifetime in days per feature type (§6.1); null means permanent. A type that is not
 * listed (the type is an open set) never becomes potentially stale.
 */
export const FEATURE_TYPE_LIFETIME_DAYS: Readonly<Record<string, number | null>> = {
  release: 40,
  experiment: 40,
  operational: 7,
  'kill-switch': null,
  permission: null,
};

/** Not stale, not archived, and older than its type's expected lifetime. */
export function isPotentiallyStale(feature: Feature, now: Date): boolean {
  const lifetime = FEATURE_TYPE_LIFETIME_DAYS[feature.type];
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
