import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import { averageDaysToProduction } from './time-to-production.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const WINDOW_DAYS = 30;

export interface ProjectStats {
  avgTimeToProdCurrentWindow: number;
  createdCurrentWindow: number;
  createdPastWindow: number;
  archivedCurrentWindow: number;
  archivedPastWindow: number;
  projectActivityCurrentWindow: number;
  projectActivityPastWindow: number;
  projectMembersAddedCurrentWindow: number;
}

/**
 * E8's `stats`, from recorded change events: "current" is the last 30 days, "past" the 30
 * days before. `events` must cover both windows (and, for time to production, the features'
 * whole history) and be oldest first.
 */
export function projectStats(
  projectId: string,
  features: Feature[],
  events: ChangeEvent[],
  productionEnvironments: Set<string>,
  now: Date,
): ProjectStats {
  const currentStart = now.getTime() - WINDOW_DAYS * DAY_MS;
  const pastStart = currentStart - WINDOW_DAYS * DAY_MS;
  const own = events.filter((event) => event.project === projectId);
  const current = own.filter((event) => Date.parse(event.createdAt) >= currentStart);
  const past = own.filter((event) => Date.parse(event.createdAt) >= pastStart && Date.parse(event.createdAt) < currentStart);
  const count = (list: ChangeEvent[], change: string) => list.filter((event) => event.changes?.includes(change)).length;
  // Features whose first production enabling fell in the current window.
  const reachedNow = averageDaysToProduction(
    features.filter((feature) => feature.project === projectId),
    firstProductionEnablings(own, productionEnvironments).filter((event) => Date.parse(event.createdAt) >= currentStart),
    productionEnvironments,
  );
  return {
    avgTimeToProdCurrentWindow: reachedNow,
    createdCurrentWindow: count(current, 'created'),
    createdPastWindow: count(past, 'created'),
    archivedCurrentWindow: count(current, 'archived'),
    archivedPastWindow: count(past, 'archived'),
    projectActivityCurrentWindow: current.length,
    projectActivityPastWindow: past.length,
    projectMembersAddedCurrentWindow: current.filter((event) => event.type === 'project-member-added').length,
  };
}

function firstProductionEnablings(events: ChangeEvent[], production: Set<string>): ChangeEvent[] {
  const seen = new Set<string>();
  return events.filter((event) => {
    if (!event.featureName || seen.has(event.featureName)) return false;
    const enabled = (event.changes ?? []).some((c) => c.startsWith('enabled:') && production.has(c.slice('enabled:'.length)));
    if (enabled) seen.add(event.featureName);
    return enabled;
  });
}
