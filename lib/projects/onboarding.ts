import type { Feature } from '../features/model.js';
import type { LastSeenReader } from '../features/ports.js';

/** Where a project stands in the admin UI's first steps, as Unleash's project page reads it. */
export type OnboardingStatus =
  | { status: 'onboarding-started' }
  | { status: 'first-flag-created'; feature: string }
  | { status: 'onboarded' };

/** Features whose last-seen times are looked up at most, newest first, this many at once. */
const PROBED = 100;
const AT_ONCE = 25;

/**
 * Unleash's rule (without its newer steps): onboarded once an SDK has reported one of the
 * project's features; before that, the first feature created, if there is one. Only the newest
 * 100 features are looked up, a few small Queries at a time until one was seen: the project page
 * asks on every visit, and reading every last-seen item of the table would cost far more.
 */
export async function onboardingStatus(active: readonly Feature[], lastSeen: LastSeenReader): Promise<OnboardingStatus> {
  const byAge = [...active].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name));
  const first = byAge[0];
  if (!first) return { status: 'onboarding-started' };
  const newest = byAge.reverse().slice(0, PROBED);
  for (let start = 0; start < newest.length; start += AT_ONCE) {
    const seen = await Promise.all(newest.slice(start, start + AT_ONCE).map((f) => lastSeen.forFeature(f.name)));
    if (seen.some((environments) => Object.keys(environments).length > 0)) return { status: 'onboarded' };
  }
  return { status: 'first-flag-created', feature: first.name };
}
