import type { Feature } from '../features/model.js';
import type { LastSeenReader } from '../features/ports.js';

/** Where a project stands in the admin UI's first steps, as Unleash's project page reads it. */
export type OnboardingStatus =
  | { status: 'onboarding-started' }
  | { status: 'first-flag-created'; feature: string }
  | { status: 'onboarded' };

/** Up to this many features, their last-seen times are looked up one Query each, all at once; above, one read of them all. */
const PROBED_ONE_BY_ONE = 25;

/**
 * Unleash's rule (without its newer steps): onboarded once an SDK has reported one of the
 * project's features; before that, the first feature created, if there is one. The project page
 * and the personal dashboard ask on every visit: a small project's features are looked up one
 * small Query each, all at once; a larger one's with one read of every last-seen time (a few
 * bytes an item, one partition, read a megabyte a page), which costs one Query up to some ten
 * thousand seen feature environments where looking up each feature cost one Query per feature
 * (100, one round of 25 after another, for the UI benchmark's 1,000-flag project).
 */
export async function onboardingStatus(active: readonly Feature[], lastSeen: LastSeenReader): Promise<OnboardingStatus> {
  const byAge = [...active].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name));
  const first = byAge[0];
  if (!first) return { status: 'onboarding-started' };
  if (await anySeen(byAge, lastSeen)) return { status: 'onboarded' };
  return { status: 'first-flag-created', feature: first.name };
}

async function anySeen(features: readonly Feature[], lastSeen: LastSeenReader): Promise<boolean> {
  const seen = (environments: Record<string, string> | undefined) => environments !== undefined && Object.keys(environments).length > 0;
  if (features.length <= PROBED_ONE_BY_ONE) return (await Promise.all(features.map((f) => lastSeen.forFeature(f.name)))).some(seen);
  const all = await lastSeen.forAll();
  return features.some((feature) => seen(all.get(feature.name)));
}
