import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { queryCollection } from '../store/query.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed, type TransactWriteItem } from '../store/transact.js';

/**
 * How many items a project's count of active features is spread over (ADR 14). Every feature
 * created, archived, revived or deleted moves the count in its own transaction, and DynamoDB
 * cancels transactions that meet on one item: with one counter, parallel creates in one project
 * cancelled each other by the hundred. Sixteen small items keep a project's count one Query.
 */
export const FEATURE_COUNT_SHARDS = 16;

/** A project's count as read: each shard's value, and the copy of the project's feature limit they carry. */
export interface FeatureCountState {
  shards: Map<number, number>;
  /** The project's `featureLimit`, copied onto every shard so a create's own shard can check it. */
  limit: number | null;
}

/** The count's total: the sum of its shards (one shard may be negative, see `ensure`). */
export function totalOf(state: FeatureCountState): number {
  let total = 0;
  for (const count of state.shards.values()) total += count;
  return total;
}

/**
 * A project's count of active (not archived) features, kept on FEATURE_COUNT_SHARDS items beside
 * the project item. The shards exist exactly while the project does: they are written with the
 * project and deleted with it, so a change that finds its shard proves the project exists.
 *
 * - A change moves one shard (any: only the sum means something) in the transaction of the
 *   features it creates or archives. An unlimited project's creates pick a random shard, so
 *   parallel creates rarely meet; each shard's condition `attribute_not_exists(featureLimit)`
 *   makes a create that raced with a new limit fail and decide again.
 * - A project with a limit takes every create on shard 0, conditioned on the limit it read and on
 *   shard 0 leaving room for the other shards as read: those only fall while the limit holds
 *   (archives and deletes; revive ignores the limit, as in Unleash). Limited creates therefore
 *   take turns, which is what a limit asks for.
 * - A delete reads every shard and deletes each on the value it read, so a create in between
 *   cancels it.
 */
export class DynamoFeatureCounts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Which shard an unlimited change moves; random so parallel creates rarely meet (tests fix it). */
    private readonly pickShard: () => number = () => Math.floor(Math.random() * FEATURE_COUNT_SHARDS),
  ) {}

  /** The project's count, or undefined when it has no shards (missing, or created before ADR 14). */
  async read(projectId: string): Promise<FeatureCountState | undefined> {
    return stateOf(await queryCollection(this.db, this.tableName, keys.projectFeatureCounts(projectId)));
  }

  /** Every project's total, in one Query of the projects' partition. */
  async totals(): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    for (const item of await queryCollection(this.db, this.tableName, keys.allProjectFeatureCounts())) {
      const project = item.project as string;
      totals.set(project, (totals.get(project) ?? 0) + numberOf(item.featureCount));
    }
    return totals;
  }

  /** The shards of a new project, written in its transaction (`initial` moves a legacy count in). */
  newProjectItems(projectId: string, limit: number | null, initial = 0): TransactWriteItem[] {
    return shardNumbers().map((shard) => ({
      Put: {
        TableName: this.tableName,
        Item: {
          ...keys.projectFeatureCount(projectId, shard),
          project: projectId,
          featureCount: shard === 0 ? initial : 0,
          ...(limit === null ? {} : { featureLimit: limit }),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    }));
  }

  /** Copies a changed feature limit onto every shard, in the transaction that changes the project. */
  limitItems(projectId: string, limit: number | null): TransactWriteItem[] {
    return shardNumbers().map((shard) => ({
      Update: {
        TableName: this.tableName,
        Key: keys.projectFeatureCount(projectId, shard),
        ...(limit === null
          ? { UpdateExpression: 'REMOVE featureLimit' }
          : { UpdateExpression: 'SET featureLimit = :limit', ExpressionAttributeValues: { ':limit': limit } }),
        ConditionExpression: 'attribute_exists(pk)',
      },
    }));
  }

  /** Deletes every shard, each only at the value `state` read. */
  deleteItems(projectId: string, state: FeatureCountState): TransactWriteItem[] {
    return [...state.shards].map(([shard, count]) => ({
      Delete: {
        TableName: this.tableName,
        Key: keys.projectFeatureCount(projectId, shard),
        ConditionExpression: 'featureCount = :seen',
        ExpressionAttributeValues: { ':seen': count },
      },
    }));
  }

  /**
   * The item that moves the count by `delta`. `limited` is the state read before a create that
   * the project's limit applies to; without it the change only needs the project to exist
   * (and, for a create, the project to have no limit).
   */
  changeItem(projectId: string, delta: number, check: ChangeCheck): TransactWriteItem {
    const move = { TableName: this.tableName, UpdateExpression: 'ADD featureCount :delta' };
    if (check.kind === 'within-limit') {
      const { state } = check;
      const others = totalOf(state) - (state.shards.get(0) ?? 0);
      return {
        Update: {
          ...move,
          Key: keys.projectFeatureCount(projectId, 0),
          ConditionExpression: 'featureLimit = :limit AND featureCount <= :room',
          ExpressionAttributeValues: { ':delta': delta, ':limit': state.limit, ':room': (state.limit as number) - delta - others },
        },
      };
    }
    return {
      Update: {
        ...move,
        Key: keys.projectFeatureCount(projectId, this.pickShard()),
        ConditionExpression:
          check.kind === 'unlimited' ? 'attribute_exists(pk) AND attribute_not_exists(featureLimit)' : 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':delta': delta },
      },
    };
  }

  /**
   * Gives a project created before ADR 14 its shards, moving the `featureCount` its item kept into
   * shard 0 in the same transaction. Safe to call concurrently and again. Answers the state, or
   * undefined when the project does not exist.
   */
  async ensure(projectId: string): Promise<FeatureCountState | undefined> {
    const existing = await this.read(projectId);
    if (existing) return existing;
    const { Item: project } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.project(projectId), ConsistentRead: true }),
    );
    if (!project) return undefined;
    const legacy = project.featureCount;
    const limit = typeof project.featureLimit === 'number' ? project.featureLimit : null;
    const outcome = await transactWriteDetailed(this.db, [
      {
        Update: {
          TableName: this.tableName,
          Key: keys.project(projectId),
          UpdateExpression: 'REMOVE featureCount',
          ...(typeof legacy === 'number'
            ? { ConditionExpression: 'featureCount = :seen', ExpressionAttributeValues: { ':seen': legacy } }
            : { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(featureCount)' }),
        },
      },
      ...this.newProjectItems(projectId, limit, numberOf(legacy)),
    ]);
    // What was just written is the state: reading it back could fail after the write landed
    // and turn the caller's request into an error for a change it had not made yet.
    if (outcome.ok) {
      return { shards: new Map(shardNumbers().map((shard) => [shard, shard === 0 ? numberOf(legacy) : 0])), limit };
    }
    // A concurrent call made them first (or the project went): read what is there now.
    return this.read(projectId);
  }
}

/** What a count change must hold to commit. */
export type ChangeCheck =
  /** A create in a project that had no limit when read. */
  | { kind: 'unlimited' }
  /** A create in a project with a limit: the state it read. */
  | { kind: 'within-limit'; state: FeatureCountState }
  /** Archives, deletes and revives: only that the project exists. */
  | { kind: 'exists' };

function stateOf(items: Record<string, unknown>[]): FeatureCountState | undefined {
  if (items.length === 0) return undefined;
  const shards = new Map<number, number>();
  let limit: number | null = null;
  for (const item of items) {
    shards.set(Number(String(item.sk).slice(-2)), numberOf(item.featureCount));
    if (typeof item.featureLimit === 'number') limit = item.featureLimit;
  }
  return { shards, limit };
}

function shardNumbers(): number[] {
  return Array.from({ length: FEATURE_COUNT_SHARDS }, (_, shard) => shard);
}

function numberOf(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}
