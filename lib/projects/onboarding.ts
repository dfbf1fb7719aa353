import type { Feature } from '../features/model.js';

/** Where a project stands in the admin UI's first steps, as Unleash's project page reads it. */
export type OnboardingStatus =
  | { status: 'onboarding-started' }
  | { status: 'first-flag-created'; feature: string }
  | { status: 'onboarded' };

/**
 * Unleash's rule (without its newer steps): onboarded once an SDK has reported any of the
 * project's features; before that, the first feature created, if there is one.
 */
export function onboardingStatus(active: readonly Feature[], lastSeen: ReadonlyMap<string, Record<string, string>>): OnboardingStatus {
  if (active.some((feature) => Object.keys(lastSeen.get(feature.name) ?? {}).length > 0)) return { status: 'onboarded' };
  const first = [...active].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.name.localeCompare(b.name))[0];
  return first ? { status: 'first-flag-created', feature: first.name } : { status: 'onboarding-started' };
}
