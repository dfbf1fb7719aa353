import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { changeEvent } from '../events/model.js';
import type { SdkChange } from '../revision.js';
import type { DefaultStrategy, Project, ProjectSettings } from './model.js';
import type { EnvironmentLinkOutcome, EnvironmentUnlinkOutcome, ProjectStore, StoredProject } from './store.js';
import { DynamoFeatureCounts, totalOf } from '../features/dynamo-feature-counts.js';
import { eventItem } from '../events/dynamo-store.js';
import { unresolvedConflict } from '../store/error-translation.js';
import { queryCollection } from '../store/query.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';
import { setAttributes } from '../store/update-expression.js';

/**
 * A project is one item. Its `environments` are a string set, so adding and removing one is
 * an atomic ADD/DELETE whose condition also guards "already added" and "never the last one".
 * Its count of active features lives on shard items beside it (ADR 14,
 * lib/features/dynamo-feature-counts.ts), written and deleted with the project; the feature store moves them.
 * A project from before ADR 14 keeps the count in its own `featureCount` until its shards are made.
 */
export class DynamoProjectStore implements ProjectStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: DynamoRevisionStore,
    private readonly featureCounts: DynamoFeatureCounts = new DynamoFeatureCounts(db, tableName),
  ) {}

  async list(): Promise<StoredProject[]> {
    const [items, totals] = await Promise.all([
      queryCollection(this.db, this.tableName, keys.projects()),
      this.featureCounts.totals(),
    ]);
    return items.map((item) => {
      const { project, legacyCount } = toProject(item);
      return { project, featureCount: legacyCount + (totals.get(project.id) ?? 0) };
    });
  }

  async get(id: string): Promise<Project | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.project(id), ConsistentRead: true }));
    return Item ? toProject(Item).project : undefined;
  }

  async insert(project: Project, actor: string): Promise<boolean> {
    const outcome = await transactWriteDetailed(this.db, [
      { Put: { TableName: this.tableName, Item: projectItem(project), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...this.featureCounts.newProjectItems(project.id, project.featureLimit),
      this.event('project-created', actor, project.id),
    ]);
    return outcome.ok;
  }

  /** The feature limit is copied onto the count's shards in the same transaction (ADR 14). */
  async updateSettings(id: string, settings: ProjectSettings, updatedAt: string, actor: string): Promise<boolean> {
    if (!(await this.featureCounts.ensure(id))) return false;
    const update = setAttributes({ ...settings, updatedAt });
    const outcome = await transactWriteDetailed(this.db, [
      { Update: { TableName: this.tableName, Key: keys.project(id), ...update, ConditionExpression: 'attribute_exists(pk)' } },
      ...this.featureCounts.limitItems(id, settings.featureLimit),
      this.event('project-updated', actor, id),
    ]);
    return outcome.ok;
  }

  /**
   * Deletes the project with its count's shards, each at the value read, so a feature created
   * or archived in between cancels the delete, which then reads again.
   */
  async deleteIfEmpty(id: string, actor: string): Promise<'done' | 'missing' | 'has-features'> {
    for (let round = 1; ; round += 1) {
      const counts = await this.featureCounts.ensure(id);
      if (!counts) return 'missing';
      if (totalOf(counts) !== 0) return 'has-features';
      const outcome = await transactWriteDetailed(this.db, [
        { Delete: { TableName: this.tableName, Key: keys.project(id), ConditionExpression: 'attribute_exists(pk)' } },
        ...this.featureCounts.deleteItems(id, counts),
        this.event('project-deleted', actor, id),
      ]);
      if (outcome.ok) return 'done';
      if (round >= DELETE_ROUNDS) throw unresolvedConflict(new Error(`project ${id}'s feature count kept changing`));
    }
  }

  async addEnvironment(id: string, environment: string, actor: string): Promise<EnvironmentLinkOutcome> {
    const outcome = await this.revisions.commit([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(id),
          UpdateExpression: 'ADD environments :names',
          ConditionExpression: 'attribute_exists(pk) AND NOT contains(environments, :name)',
          ExpressionAttributeValues: { ':names': new Set([environment]), ':name': environment },
        },
      },
      { ConditionCheck: { TableName: this.tableName, Key: keys.environment(environment), ConditionExpression: 'attribute_exists(pk)' } },
      this.event('project-environment-added', actor, id, [environment]),
    ], PROJECT_CHANGE);
    if (outcome.ok) return 'done';
    if (outcome.failedIndex === 1) return 'environment-missing';
    return (await this.get(id)) ? 'already-added' : 'project-missing';
  }

  async removeEnvironment(id: string, environment: string, actor: string): Promise<EnvironmentUnlinkOutcome> {
    const outcome = await this.revisions.commit([
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(id),
          UpdateExpression: 'DELETE environments :names REMOVE defaultStrategies.#environment',
          ConditionExpression: 'attribute_exists(pk) AND contains(environments, :name) AND size(environments) > :one',
          ExpressionAttributeNames: { '#environment': environment },
          ExpressionAttributeValues: { ':names': new Set([environment]), ':name': environment, ':one': 1 },
        },
      },
      this.event('project-environment-removed', actor, id, [environment]),
    ], PROJECT_CHANGE);
    if (outcome.ok) return 'done';
    const stored = await this.get(id);
    if (!stored) return 'project-missing';
    return stored.environments.includes(environment) ? 'last-environment' : 'not-added';
  }

  async setDefaultStrategy(id: string, environment: string, strategy: DefaultStrategy, actor: string): Promise<boolean> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(id),
          UpdateExpression: 'SET defaultStrategies.#environment = :strategy',
          ConditionExpression: 'attribute_exists(pk) AND contains(environments, :name)',
          ExpressionAttributeNames: { '#environment': environment },
          ExpressionAttributeValues: { ':strategy': strategy, ':name': environment },
        },
      },
      this.event('project-default-strategy-set', actor, id, [environment]),
    ]);
    return outcome.ok;
  }

  /** Project changes are recorded in their own transactions (project activity in E8 counts them). */
  private event(type: string, actor: string, project: string, changes?: string[]) {
    return eventItem(this.tableName, changeEvent(type, { project, changes }, actor));
  }
}

/** A project's environments are rare to change and may matter to any payload: SDK containers read everything again. */
const PROJECT_CHANGE: SdkChange = { everything: true };

/** How often a delete reads the count again after a concurrent change cancelled it. */
const DELETE_ROUNDS = 4;

/** The item of a new project; the seed writes it the same way, with `newProjectItems`' shards. */
export function projectItem(project: Project): Record<string, unknown> {
  return { ...keys.project(project.id), ...project, environments: new Set(project.environments) };
}

/** The project, and the count its item kept before ADR 14 (0 once its shards exist). */
function toProject(item: Record<string, unknown>): { project: Project; legacyCount: number } {
  const { pk: _pk, sk: _sk, featureCount, environments, ...project } = item;
  return {
    project: { ...project, environments: [...((environments as Set<string> | undefined) ?? [])] } as unknown as Project,
    legacyCount: typeof featureCount === 'number' ? featureCount : 0,
  };
}
