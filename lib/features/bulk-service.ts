import { NotFound } from '../errors.js';
import { featureInProject, type FeatureAggregates } from './aggregate.js';
import type { Tag } from './model.js';
import type { FeatureRelationService } from './relation-service.js';
import type { FeatureStrategyService } from './strategy-service.js';

/** Flags changed at once: each is its own transaction, so a few at a time keep one call from crowding the table. */
const AT_ONCE = 4;

/**
 * The bulk actions of a project's flag table: switching the selected flags in one environment
 * and changing their tags. Each flag changes in its own transaction with its own change event,
 * wholly or not at all, as Unleash changes them one by one; every flag is checked to be in the
 * project before any is changed, and the first failure is answered once all were tried.
 */
export class FeatureBulkService {
  constructor(
    private readonly aggregates: FeatureAggregates,
    private readonly strategies: FeatureStrategyService,
    private readonly relations: FeatureRelationService,
  ) {}

  async switchEnvironment(
    projectId: string, names: readonly string[], environment: string,
    change: { enabled: boolean; activateDisabledStrategies: boolean }, actor: string,
  ): Promise<void> {
    const flags = await this.flagsOf(projectId, names);
    await eachSettled(flags, (featureName) => {
      const ref = { projectId, featureName, environment };
      return change.enabled
        ? this.strategies.turnOn(ref, actor, change.activateDisabledStrategies)
        : this.strategies.turnOff(ref, actor);
    });
  }

  async changeTags(projectId: string, names: readonly string[], added: Tag[], removed: Tag[], actor: string): Promise<void> {
    const flags = await this.flagsOf(projectId, names);
    await eachSettled(flags, (featureName) => this.relations.changeTags(featureName, added, removed, actor));
  }

  /** The named flags, once each, all of them active flags of the project (404 naming the first that is not). */
  private async flagsOf(projectId: string, names: readonly string[]): Promise<string[]> {
    const unique = [...new Set(names)];
    const found = new Map((await this.aggregates.store.getMany(unique)).map((feature) => [feature.name, feature]));
    for (const name of unique) {
      const feature = await featureInProject(projectId, name, async (n) => found.get(n));
      if (feature.archived) throw new NotFound(`Feature ${name} is archived`);
    }
    return unique;
  }
}

/** Runs `step` on every item, a few at a time; rejects with the first failure once every step ended. */
async function eachSettled<T>(items: readonly T[], step: (item: T) => Promise<unknown>): Promise<void> {
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await step(item).catch((error: unknown) => failures.push(error));
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}
