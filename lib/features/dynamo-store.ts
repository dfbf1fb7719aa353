import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { segmentIdsOf, strategyTypeNamesOf, type Feature } from './model.js';
import { builtInStrategyType } from '../strategies/model.js';
import type { CommitOutcome, FeatureCommit, FeatureStore, FeatureWrite } from './store.js';
import { eventItem } from '../events/dynamo-store.js';
import { queryCollection } from '../store/query.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { keys } from '../store/table-design.js';
import type { TransactWriteItem } from '../store/transact.js';

/** What each transaction item stands for, so a failed condition can be explained. */
type ItemMeaning =
  | { kind: 'feature'; write: FeatureWrite }
  | { kind: 'segment'; segmentId: number }
  | { kind: 'strategy-type'; name: string }
  | { kind: 'project'; project: string; delta: number }
  | { kind: 'event' };

export class DynamoFeatureStore implements FeatureStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly revisions: DynamoRevisionStore,
  ) {}

  async get(name: string): Promise<Feature | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.feature(name), ConsistentRead: true }),
    );
    return Item ? toFeature(Item) : undefined;
  }

  async listAll(): Promise<Feature[]> {
    return (await queryCollection(this.db, this.tableName, keys.features())).map(toFeature);
  }

  async commit(change: FeatureCommit): Promise<CommitOutcome> {
    const planned: Array<{ item: TransactWriteItem; meaning: ItemMeaning }> = [
      ...change.writes.map((write) => ({ item: this.featureItem(write), meaning: { kind: 'feature', write } as const })),
      ...this.segmentItems(change.writes),
      ...this.strategyTypeItems(change.writes),
      ...this.projectItems(change.projectFeatureCounts ?? {}),
      ...(change.events ?? []).map((event) => ({
        item: eventItem(this.tableName, event),
        meaning: { kind: 'event' } as const,
      })),
    ];
    // Another writer of the same aggregate wins the race: re-read and recompute (the service's
    // optimistic retry) rather than resend a transaction whose version is about to be stale.
    const lostRace = (index: number) => {
      const meaning = planned[index]?.meaning;
      return meaning?.kind === 'feature' && meaning.write.before !== undefined;
    };
    const outcome = await this.revisions.commit(planned.map((entry) => entry.item), { lostRace });
    if (outcome.ok) return { ok: true };
    return explain(planned[outcome.failedIndex]?.meaning);
  }

  private featureItem({ before, after }: FeatureWrite): TransactWriteItem {
    const name = (after ?? before)?.name as string;
    if (!after) {
      return {
        Delete: {
          TableName: this.tableName,
          Key: keys.feature(name),
          ConditionExpression: 'version = :version',
          ExpressionAttributeValues: { ':version': before?.version },
        },
      };
    }
    return {
      Put: {
        TableName: this.tableName,
        Item: { ...keys.feature(name), ...after },
        ...(before
          ? { ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': before.version } }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    };
  }

  /**
   * Each segment counts the features whose strategies use it. A newly used segment must
   * exist (the update's condition), and a segment whose count is above zero cannot be deleted.
   */
  private segmentItems(writes: FeatureWrite[]): Array<{ item: TransactWriteItem; meaning: ItemMeaning }> {
    const deltas = new Map<number, number>();
    for (const { before, after } of writes) {
      const old = segmentIdsOf(before);
      const now = segmentIdsOf(after);
      for (const id of now) if (!old.has(id)) deltas.set(id, (deltas.get(id) ?? 0) + 1);
      for (const id of old) if (!now.has(id)) deltas.set(id, (deltas.get(id) ?? 0) - 1);
    }
    return [...deltas].filter(([, delta]) => delta !== 0).map(([segmentId, delta]) => ({
      item: {
        Update: {
          TableName: this.tableName,
          Key: keys.segment(segmentId),
          UpdateExpression: 'ADD refCount :delta',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':delta': delta },
        },
      },
      meaning: { kind: 'segment', segmentId },
    }));
  }

  /**
   * A custom strategy type that a feature starts using must still exist, and its `usageMark`
   * moves: a delete reads the mark, finds no feature using the type, and deletes only if the
   * mark has not moved since. Only new uses count; dropping a use cannot make a delete wrong.
   * Built-in types live in code and have no item to check.
   */
  private strategyTypeItems(writes: FeatureWrite[]): Array<{ item: TransactWriteItem; meaning: ItemMeaning }> {
    const added = new Map<string, number>();
    for (const { before, after } of writes) {
      const old = strategyTypeNamesOf(before);
      for (const name of strategyTypeNamesOf(after)) {
        if (!old.has(name) && !builtInStrategyType(name)) added.set(name, (added.get(name) ?? 0) + 1);
      }
    }
    return [...added].map(([name, uses]) => ({
      item: {
        Update: {
          TableName: this.tableName,
          Key: keys.strategyType(name),
          UpdateExpression: 'ADD usageMark :uses',
          ConditionExpression: 'attribute_exists(pk) AND builtIn = :false',
          ExpressionAttributeValues: { ':uses': uses, ':false': false },
        },
      },
      meaning: { kind: 'strategy-type', name },
    }));
  }

  /** The project's count of active features moves with them; a create may not pass the limit. */
  private projectItems(
    counts: NonNullable<FeatureCommit['projectFeatureCounts']>,
  ): Array<{ item: TransactWriteItem; meaning: ItemMeaning }> {
    return Object.entries(counts)
      .filter(([, { delta }]) => delta !== 0)
      .map(([project, { delta, limit }]) => {
        const capped = delta > 0 && limit !== null;
        return {
          item: {
            Update: {
              TableName: this.tableName,
              Key: keys.project(project),
              UpdateExpression: 'ADD featureCount :delta',
              ConditionExpression: capped
                ? 'attribute_exists(pk) AND (attribute_not_exists(featureCount) OR featureCount <= :max)'
                : 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':delta': delta, ...(capped ? { ':max': (limit as number) - delta } : {}) },
            },
          },
          meaning: { kind: 'project', project, delta },
        };
      });
  }
}

function explain(meaning: ItemMeaning | undefined): CommitOutcome {
  switch (meaning?.kind) {
    case 'feature': {
      const { before, after } = meaning.write;
      const feature = (after ?? before)?.name as string;
      return { ok: false, reason: before ? 'version-changed' : 'name-taken', feature };
    }
    case 'segment':
      return { ok: false, reason: 'segment-missing', segmentId: meaning.segmentId };
    case 'strategy-type':
      return { ok: false, reason: 'strategy-type-missing', strategyType: meaning.name };
    case 'project':
      return { ok: false, reason: meaning.delta > 0 ? 'feature-limit' : 'project-missing', project: meaning.project };
    default:
      throw new Error('A feature transaction failed on an item that has no condition');
  }
}

function toFeature(item: Record<string, unknown>): Feature {
  const { pk: _pk, sk: _sk, ...feature } = item;
  return feature as unknown as Feature;
}
