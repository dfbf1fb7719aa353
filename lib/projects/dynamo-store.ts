import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { changeEvent } from '../events/model.js';
import type { DefaultStrategy, Project, ProjectSettings } from './model.js';
import type { EnvironmentLinkOutcome, EnvironmentUnlinkOutcome, ProjectStore, StoredProject } from './store.js';
import { eventItem } from '../events/dynamo-store.js';
import { queryCollection } from '../store/query.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';
import { setAttributes } from '../store/update-expression.js';

/**
 * A project is one item. Its `environments` are a string set, so adding and removing one is
 * an atomic ADD/DELETE whose condition also guards "already added" and "never the last one".
 * `featureCount` belongs to the feature store, which moves it with ADD in its transactions;
 * this store never writes the whole item after creating it, so the count is never overwritten.
 */
export class DynamoProjectStore implements ProjectStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: DynamoRevisionStore,
  ) {}

  async list(): Promise<StoredProject[]> {
    return (await queryCollection(this.db, this.tableName, keys.projects())).map(toStoredProject);
  }

  async get(id: string): Promise<StoredProject | undefined> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.project(id), ConsistentRead: true }));
    return Item ? toStoredProject(Item) : undefined;
  }

  async insert(project: Project, actor: string): Promise<boolean> {
    const outcome = await transactWriteDetailed(this.db, [
      { Put: { TableName: this.tableName, Item: projectItem(project), ConditionExpression: 'attribute_not_exists(pk)' } },
      this.event('project-created', actor, project.id),
    ]);
    return outcome.ok;
  }

  async updateSettings(id: string, settings: ProjectSettings, updatedAt: string, actor: string): Promise<boolean> {
    const update = setAttributes({ ...settings, updatedAt });
    const outcome = await transactWriteDetailed(this.db, [
      { Update: { TableName: this.tableName, Key: keys.project(id), ...update, ConditionExpression: 'attribute_exists(pk)' } },
      this.event('project-updated', actor, id),
    ]);
    return outcome.ok;
  }

  async deleteIfEmpty(id: string, actor: string): Promise<'done' | 'missing' | 'has-features'> {
    const outcome = await transactWriteDetailed(this.db, [
      {
        Delete: {
          TableName: this.tableName,
          Key: keys.project(id),
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(featureCount) OR featureCount = :zero)',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      },
      this.event('project-deleted', actor, id),
    ]);
    if (outcome.ok) return 'done';
    return (await this.get(id)) ? 'has-features' : 'missing';
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
    ]);
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
    ]);
    if (outcome.ok) return 'done';
    const stored = await this.get(id);
    if (!stored) return 'project-missing';
    return stored.project.environments.includes(environment) ? 'last-environment' : 'not-added';
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

/** The item of a new project; the seed writes it the same way. */
export function projectItem(project: Project): Record<string, unknown> {
  return { ...keys.project(project.id), ...project, environments: new Set(project.environments), featureCount: 0 };
}

function toStoredProject(item: Record<string, unknown>): StoredProject {
  const { pk: _pk, sk: _sk, featureCount, environments, ...project } = item;
  return {
    project: { ...project, environments: [...((environments as Set<string> | undefined) ?? [])] } as unknown as Project,
    featureCount: typeof featureCount === 'number' ? featureCount : 0,
  };
}
