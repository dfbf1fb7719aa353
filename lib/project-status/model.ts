import { isPotentiallyStale, type Feature } from '../features/model.js';

/** A stage a flag entered, as the flags record them (lib/features). */
export interface EnteredStage {
  stage: string;
  enteredStageAt: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** The stages the project status page counts, by Unleash's wire names. */
const SUMMARY_STAGES = { initial: 'initial', preLive: 'pre-live', live: 'live', completed: 'completed' } as const;

/**
 * Unleash's lifecycle summary of one project: for each stage, how many of the project's active
 * flags are in it now (the stage entered last) and the average whole days flags spent in it
 * (from entering it to entering the next one; flags still in it do not count, null when none
 * left it); archived flags counted apart, with those archived in the last 30 days.
 */
export function lifecycleSummary(features: readonly Feature[], stagesOf: (feature: Feature) => readonly EnteredStage[], now: Date) {
  const current = new Map<string, number>();
  const durations = new Map<string, number[]>();
  for (const feature of features) {
    const stages = [...stagesOf(feature)].sort((a, b) => a.enteredStageAt.localeCompare(b.enteredStageAt));
    for (const [index, entered] of stages.entries()) {
      const next = stages.slice(index + 1).find((later) => later.enteredStageAt > entered.enteredStageAt);
      if (!next || entered.stage === 'archived') continue;
      const days = (Date.parse(next.enteredStageAt) - Date.parse(entered.enteredStageAt)) / DAY_MS;
      durations.set(entered.stage, [...(durations.get(entered.stage) ?? []), days]);
    }
    const last = stages.at(-1);
    if (!feature.archived && last && last.stage !== 'archived') current.set(last.stage, (current.get(last.stage) ?? 0) + 1);
  }
  const average = (stage: string) => {
    const days = durations.get(stage);
    return days && days.length > 0 ? Math.round(days.reduce((sum, value) => sum + value, 0) / days.length) : null;
  };
  const archived = features.filter((feature) => feature.archived);
  const monthAgo = now.getTime() - 30 * DAY_MS;
  const summary = Object.fromEntries(Object.entries(SUMMARY_STAGES).map(([key, stage]) => [key, { averageDays: average(stage), currentFlags: current.get(stage) ?? 0 }]));
  return {
    ...(summary as Record<keyof typeof SUMMARY_STAGES, { averageDays: number | null; currentFlags: number }>),
    archived: {
      currentFlags: archived.length,
      last30Days: archived.filter((feature) => feature.archivedAt !== null && Date.parse(feature.archivedAt) >= monthAgo).length,
    },
  };
}

/** Active flags that are stale or potentially stale, as the status page's "stale flags" counts them. */
export function staleFlagCount(features: readonly Feature[], now: Date): number {
  return features.filter((feature) => !feature.archived && (feature.stale || isPotentiallyStale(feature, now))).length;
}

/** Unleash's flag creators of a project: who created its active flags, once each, by id; flags of unknown creators left out. */
export function flagCreators(features: readonly Feature[]): Array<{ id: number; name: string }> {
  const creators = new Map<number, string>();
  for (const feature of features) {
    if (!feature.archived && feature.createdBy) creators.set(feature.createdBy.id, feature.createdBy.name);
  }
  return [...creators].sort(([a], [b]) => a - b).map(([id, name]) => ({ id, name }));
}
