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
 * days before. `events` must cover both windows and be oldest first; for time to production,
 * `enabledInProductionBefore` names the features that the project's events before them show
 * enabled in production already (back to its oldest feature), so that a later enabling is not
 * counted as a first one.
 */
export function projectStats(
  projectId: string,
  features: readonly Feature[],
  events: readonly ChangeEvent[],
  productionEnvironments: ReadonlySet<string>,
  now: Date,
  enabledInProductionBefore: ReadonlySet<string> = new Set(),
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
    firstProductionEnablings(own, productionEnvironments, enabledInProductionBefore).filter((event) => Date.parse(event.createdAt) >= currentStart),
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

/**
 * The project's features whose first production enabling among `events` (oldest first) falls in
 * the current window: only for these does the history before `events` change the figure.
 */
export function enabledFirstInCurrentWindow(
  projectId: string,
  features: readonly Feature[],
  events: readonly ChangeEvent[],
  productionEnvironments: ReadonlySet<string>,
  now: Date,
): string[] {
  const currentStart = now.getTime() - WINDOW_DAYS * DAY_MS;
  const names = new Set(features.filter((feature) => feature.project === projectId).map((feature) => feature.name));
  return firstProductionEnablings(events.filter((event) => event.project === projectId), productionEnvironments)
    .filter((event) => names.has(event.featureName as string) && Date.parse(event.createdAt) >= currentStart)
    .map((event) => event.featureName as string);
}

/** Whether the event enables its feature in a production environment. */
export function enablesInProduction(event: ChangeEvent, production: ReadonlySet<string>): boolean {
  return (event.changes ?? []).some((c) => c.startsWith('enabled:') && production.has(c.slice('enabled:'.length)));
}

function firstProductionEnablings(events: readonly ChangeEvent[], production: ReadonlySet<string>, enabledBefore: ReadonlySet<string> = new Set()): ChangeEvent[] {
  const seen = new Set<string>(enabledBefore);
  return events.filter((event) => {
    if (!event.featureName || seen.has(event.featureName)) return false;
    const enabled = enablesInProduction(event, production);
    if (enabled) seen.add(event.featureName);
    return enabled;
  });
}
