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
