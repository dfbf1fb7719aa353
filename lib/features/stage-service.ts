import { type FeatureAggregates, featureInProject, replaced } from './aggregate.js';
import type { Feature } from './model.js';
import { type CompletionStatus, entered, LIFECYCLE_STAGES, type LifecycleStage, type LifecycleStageName, stagesOf } from './rules/lifecycle.js';
import type { EveryFeature } from './search-service.js';

/**
 * A flag's lifecycle stages (rules/lifecycle.ts): reading them, marking a flag completed and
 * taking that back, and counting flags per stage. Created, archived and revived are recorded by
 * the writes themselves (aggregate.ts).
 */
export class FeatureStageService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly everyFeature: EveryFeature,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stages a flag of the project entered, oldest first (archived flags too, as Unleash answers). */
  async stages(projectId: string, name: string): Promise<LifecycleStage[]> {
    const feature = await featureInProject(projectId, name, (n) => this.aggregates.store.get(n));
    return stagesOf(feature);
  }

  /**
   * Marks the flag completed with what became of it (its code kept or discarded, and what was
   * kept). A flag completed already keeps its first completion, as Unleash records each stage once.
   */
  async complete(projectId: string, name: string, completion: { status: CompletionStatus; statusValue?: string | undefined }, actor: string): Promise<void> {
    const enteredStageAt = this.now().toISOString();
    await this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(projectId, name, read);
      const stage: LifecycleStage = {
        stage: 'completed', enteredStageAt, status: completion.status,
        ...(completion.statusValue === undefined ? {} : { statusValue: completion.statusValue }),
      };
      return { commit: { writes: writesIfChanged(before, entered(stagesOf(before), stage)) }, result: undefined };
    });
  }

  /** Takes the completion back: the flag is at the furthest stage it reached before. */
  async uncomplete(projectId: string, name: string, actor: string): Promise<void> {
    await this.aggregates.apply(actor, async (read) => {
      const before = await this.aggregates.activeFeature(projectId, name, read);
      return { commit: { writes: writesIfChanged(before, stagesOf(before).filter((stage) => stage.stage !== 'completed')) }, result: undefined };
    });
  }

  /**
   * Flags per stage, as Unleash counts them: each flag (archived ones too) under the stage it
   * entered last, from the admin read model of every flag.
   */
  async counts(): Promise<Record<LifecycleStageName, number>> {
    const counts = Object.fromEntries(LIFECYCLE_STAGES.map((stage) => [stage, 0])) as Record<LifecycleStageName, number>;
    for (const feature of await this.everyFeature()) counts[latestStage(feature)] += 1;
    return counts;
  }
}

function writesIfChanged(before: Feature, lifecycle: LifecycleStage[]) {
  return lifecycle.length === stagesOf(before).length ? [] : [replaced(before, { ...before, lifecycle })];
}

/** The stage entered last (the latest time; of equal times, the one recorded last). */
function latestStage(feature: Feature): LifecycleStageName {
  let latest: LifecycleStage | undefined;
  for (const stage of stagesOf(feature)) if (!latest || stage.enteredStageAt >= latest.enteredStageAt) latest = stage;
  return latest?.stage ?? 'initial';
}
