import type { Feature } from '../model.js';

/**
 * A flag's lifecycle as Unleash 7 records it: each stage is entered once (a stage already
 * entered keeps its first time), and the flag's current stage is the furthest one it reached.
 * The stages are kept on the feature aggregate, so a stage moves in the same transaction as the
 * change that defines it (created, archived, revived, completed).
 */
export const LIFECYCLE_STAGES = ['initial', 'pre-live', 'live', 'completed', 'archived'] as const;
export type LifecycleStageName = (typeof LIFECYCLE_STAGES)[number];

export const COMPLETION_STATUSES = ['kept', 'discarded'] as const;
export type CompletionStatus = (typeof COMPLETION_STATUSES)[number];

export interface LifecycleStage {
  stage: LifecycleStageName;
  enteredStageAt: string;
  /** Only on `completed`: whether the flag's code stays (kept) or goes (discarded). */
  status?: CompletionStatus | undefined;
  /** Only on `completed`: what was kept (Unleash's UI sends the variant kept). */
  statusValue?: string | undefined;
}

/** The furthest stage first: Unleash's order for a flag's current stage. */
const PREFERRED: readonly LifecycleStageName[] = ['archived', 'completed', 'live', 'pre-live', 'initial'];

/**
 * The stages a flag entered, oldest first. A flag stored before stages were recorded entered
 * `initial` when it was created (as Unleash's migration dated it) and `archived` when archived.
 */
export function stagesOf(feature: Feature): LifecycleStage[] {
  if (feature.lifecycle) return feature.lifecycle;
  const derived: LifecycleStage[] = [{ stage: 'initial', enteredStageAt: feature.createdAt }];
  if (feature.archived) derived.push({ stage: 'archived', enteredStageAt: feature.archivedAt ?? feature.createdAt });
  return derived;
}

/** The flag's current stage: the furthest it entered. */
export function currentStage(feature: Feature): LifecycleStage {
  const stages = stagesOf(feature);
  for (const name of PREFERRED) {
    const found = stages.find((stage) => stage.stage === name);
    if (found) return found;
  }
  return { stage: 'initial', enteredStageAt: feature.createdAt };
}

/** `stages` with `stage` entered at `at`, unless it was entered already. */
export function entered(stages: readonly LifecycleStage[], stage: LifecycleStage): LifecycleStage[] {
  return stages.some((known) => known.stage === stage.stage) ? [...stages] : [...stages, stage];
}

/**
 * The stages `after` holds once the write from `before` is applied: a new flag is `initial`, an
 * archived one enters `archived`, and a revived one starts again at `initial` alone, as Unleash
 * resets a revived flag's stages. Stages a write sets itself (complete, uncomplete) are kept.
 */
export function stagesAfterWrite(before: Feature | undefined, after: Feature, now: string): LifecycleStage[] {
  // A new flag enters `initial` when it is created, so its answer and its later reads agree.
  if (!before) return after.lifecycle ?? [{ stage: 'initial', enteredStageAt: after.createdAt }];
  if (before.archived && !after.archived) return [{ stage: 'initial', enteredStageAt: now }];
  const stages = after.lifecycle ?? stagesOf(before);
  return !before.archived && after.archived ? entered(stages, { stage: 'archived', enteredStageAt: now }) : stages;
}

/** Whether the flag is marked completed, and how: a change event reports when this moves. */
export function completionOf(feature: Feature | undefined): string | undefined {
  const completed = feature && stagesOf(feature).find((stage) => stage.stage === 'completed');
  return completed && `${completed.status ?? ''}:${completed.statusValue ?? ''}`;
}

/** The stages SDK metrics move a flag into. */
export type MetricsStageName = 'pre-live' | 'live';

/**
 * The stages SDK metrics from one environment move a flag into, as Unleash 7 does: `pre-live`
 * from any environment that exists, and `live` as well from a `production`-type environment in
 * which the flag is enabled. An archived or completed flag keeps its stages.
 */
export function stagesFromMetrics(feature: Feature, environment: { name: string; type: string }): MetricsStageName[] {
  if (feature.archived || stagesOf(feature).some((stage) => stage.stage === 'completed' || stage.stage === 'archived')) return [];
  const enabledThere = Object.hasOwn(feature.environments, environment.name) && feature.environments[environment.name]?.enabled === true;
  return environment.type === 'production' && enabledThere ? ['pre-live', 'live'] : ['pre-live'];
}

/** The flag's stages with `names` entered at `at`, or undefined when it had entered them all. */
export function withStagesFromMetrics(feature: Feature, names: readonly MetricsStageName[], at: string): LifecycleStage[] | undefined {
  const before = stagesOf(feature);
  // Another container's clock may be behind the one that dated the flag's last stage: a new
  // stage never precedes it, so the stage counted as the flag's latest is this one.
  const enteredStageAt = before.reduce((latest, stage) => (stage.enteredStageAt > latest ? stage.enteredStageAt : latest), at);
  const after = names.reduce((stages, stage) => entered(stages, { stage, enteredStageAt }), before);
  return after.length === before.length ? undefined : after;
}
