import type { ChangeEvent } from '../events/model.js';
import type { Feature } from '../features/model.js';
import { countsOf, type ProjectEventCounts } from './project-activity.js';
import { averageDaysFrom } from './time-to-production.js';

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

/** The span of events counted, epoch ms: [from, to). */
export interface EventSpan {
  from: number;
  to: number;
}

const EVERY_EVENT: EventSpan = { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };

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
  return projectStatsOf(projectId, features, countsOf(projectId, events), EVERY_EVENT, productionEnvironments, now, enabledInProductionBefore);
}

/** The same from the project's events counted (ProjectActivity), of `span`, which covers both windows. */
export function projectStatsOf(
  projectId: string,
  features: readonly Feature[],
  counts: ProjectEventCounts,
  span: EventSpan,
  productionEnvironments: ReadonlySet<string>,
  now: Date,
  enabledInProductionBefore: ReadonlySet<string> = new Set(),
): ProjectStats {
  const currentStart = now.getTime() - WINDOW_DAYS * DAY_MS;
  const pastStart = Math.max(span.from, currentStart - WINDOW_DAYS * DAY_MS);
  const current = (kind: Parameters<ProjectEventCounts['count']>[0]) => counts.count(kind, currentStart, span.to);
  const past = (kind: Parameters<ProjectEventCounts['count']>[0]) => counts.count(kind, pastStart, currentStart);
  // Features whose first production enabling fell in the current window.
  const reachedNow = counts.firstEnablings(productionEnvironments, span.from, span.to)
    .filter(({ feature, at }) => !enabledInProductionBefore.has(feature) && at >= currentStart);
  return {
    avgTimeToProdCurrentWindow: averageDaysFrom(
      features.filter((feature) => feature.project === projectId),
      new Map(reachedNow.map(({ feature, at }) => [feature, at])),
    ),
    createdCurrentWindow: current('created'),
    createdPastWindow: past('created'),
    archivedCurrentWindow: current('archived'),
    archivedPastWindow: past('archived'),
    projectActivityCurrentWindow: current('events'),
    projectActivityPastWindow: past('events'),
    projectMembersAddedCurrentWindow: current('member-added'),
  };
}

/**
 * The project's features whose first production enabling among the counted events of `span`
 * falls in the current window: only for these does the history before the span change the figure.
 */
export function enabledFirstInCurrentWindow(
  projectId: string,
  features: readonly Feature[],
  counts: ProjectEventCounts,
  span: EventSpan,
  productionEnvironments: ReadonlySet<string>,
  now: Date,
): string[] {
  const currentStart = now.getTime() - WINDOW_DAYS * DAY_MS;
  const names = new Set(features.filter((feature) => feature.project === projectId).map((feature) => feature.name));
  return counts.firstEnablings(productionEnvironments, span.from, span.to)
    .filter(({ feature, at }) => names.has(feature) && at >= currentStart)
    .map(({ feature }) => feature);
}

/** Whether the event enables its feature in a production environment. */
export function enablesInProduction(event: ChangeEvent, production: ReadonlySet<string>): boolean {
  return (event.changes ?? []).some((c) => c.startsWith('enabled:') && production.has(c.slice('enabled:'.length)));
}
