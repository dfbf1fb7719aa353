import { isPotentiallyStale, type Feature } from '../features/model.js';

/** A feature's own staleness belongs to the feature model; the health figures here count it. */
export { isPotentiallyStale };

/**
 * Project health (§6.2) over the project's non-archived features: 100 minus the stale and the
 * potentially stale shares. Unleash stores it hourly; computing it on read gives the same
 * number without a scheduled job.
 */
export function projectHealth(features: readonly Feature[], now: Date): number {
  const active = features.filter((feature) => !feature.archived);
  if (active.length === 0) return 100;
  const stale = active.filter((feature) => feature.stale).length;
  const potentiallyStale = active.filter((feature) => isPotentiallyStale(feature, now)).length;
  return Math.round(100 - (stale / active.length) * 100 - (potentiallyStale / active.length) * 100);
}
