import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Average days from a feature's creation to its first enabling in a production-type
 * environment, over the features that got there (0 when none did), as Unleash reports it.
 */
export function averageDaysToProduction(features: readonly Feature[], events: readonly ChangeEvent[], productionEnvironments: ReadonlySet<string>): number {
  const firstEnabled = new Map<string, number>();
  for (const event of events) {
    if (!event.featureName || firstEnabled.has(event.featureName)) continue;
    const reachedProduction = (event.changes ?? []).some(
      (change) => change.startsWith('enabled:') && productionEnvironments.has(change.slice('enabled:'.length)),
    );
    if (reachedProduction) firstEnabled.set(event.featureName, Date.parse(event.createdAt));
  }
  return averageDaysFrom(features, firstEnabled);
}

/** The same from each feature's first production enabling (epoch ms), already found. */
export function averageDaysFrom(features: readonly Feature[], firstEnabled: ReadonlyMap<string, number>): number {
  const durations = features
    .filter((feature) => firstEnabled.has(feature.name))
    .map((feature) => ((firstEnabled.get(feature.name) as number) - Date.parse(feature.createdAt)) / DAY_MS);
  if (durations.length === 0) return 0;
  return Math.round((durations.reduce((sum, days) => sum + days, 0) / durations.length) * 10) / 10;
}
