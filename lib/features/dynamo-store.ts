import { DeleteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoFeatureReads, toFeature } from './dynamo-feature-reads.js';
import { segmentIdsOf, strategyTypeNamesOf, type Feature, type Tag } from './model.js';
import { builtInStrategyType } from '../strategies/model.js';
import type { CommitOutcome, FeatureCommit, FeatureStore, FeatureWrite } from './store.js';
import { eventItem } from '../events/dynamo-store.js';
import { DynamoFeatureCounts, totalOf } from './dynamo-feature-counts.js';
import { unresolvedConflict } from '../store/error-translation.js';
import { batchGet } from '../store/batch-get.js';
import { queryCollection } from '../store/query.js';
import type { SdkChange } from '../revision.js';
import type { DynamoRevisionStore } from '../store/revision-store.js';
import { KEY, keys } from '../store/table-design.js';
import { ProjectCopies } from './dynamo-project-copies.js';
import { MAX_TRANSACTION_ITEMS, type TransactWriteItem } from '../store/transact.js';
import { isConditionFailed } from '../store/dynamo-errors.js';
import { log } from '../log.js';
import { byName } from './rules/order.js';

/** What each transaction item stands for, so a failed condition can be explained. */
type ItemMeaning =
  | { kind: 'feature'; write: FeatureWrite }
  | { kind: 'project-copy' }
  | { kind: 'segment'; segmentId: number }
  | { kind: 'strategy-type'; name: string }
  | { kind: 'project'; project: string; delta: number }
  | { kind: 'event' }
  | { kind: 'tag' }
  | { kind: 'metrics-stage' };

export class DynamoFeatureStore extends DynamoFeatureReads implements FeatureStore {
  constructor(
    db: DynamoDBDocumentClient,
    tableName: string,
    private readonly revisions: DynamoRevisionStore,
    private readonly featureCounts: DynamoFeatureCounts = new DynamoFeatureCounts(db, tableName),
    /** The copies in each project's partition, and their migration on tables from before ADR 17. */
    readonly projectCopies: ProjectCopies = new ProjectCopies(db, tableName),
  ) {
    super(db, tableName, projectCopies.record);
  }

  /** The project's active features by its count (ADR 14, one small Query); undefined when it has none. */
  async activeFeatureCount(project: string): Promise<number | undefined> {
    const state = await this.featureCounts.read(project);
    return state && totalOf(state);
  }

  async commit(change: FeatureCommit): Promise<CommitOutcome> {
    // A project count's condition that fails was decided on a read that is now stale (a new
    // limit, a concurrent create into a limited project, a project from before ADR 14):
    // read the counts again and decide again, a few times.
    // SDK containers re-read exactly these features (the change log, ADR 16).
    const touched: SdkChange = { features: [...new Set(change.writes.map(({ before, after }) => (after ?? before)?.name as string))] };
    for (let round = 1; ; round += 1) {
      const counted = await this.projectItems(change.projectFeatureCounts ?? {}, round > 1);
      if ('refused' in counted) return counted.refused;
      const planned: Array<{ item: TransactWriteItem; meaning: ItemMeaning }> = [
        ...change.writes.map((write) => ({ item: this.featureItem(write), meaning: { kind: 'feature', write } as const })),
        ...change.writes.flatMap((write) => projectCopyItems(this.tableName, write).map((item) => ({ item, meaning: { kind: 'project-copy' } as const }))),
        ...this.segmentItems(change.writes),
        ...this.strategyTypeItems(change.writes),
        ...tagItems(this.tableName, change.writes),
        ...counted.planned,
        ...(change.events ?? []).map((event) => ({
          item: eventItem(this.tableName, event),
          meaning: { kind: 'event' } as const,
        })),
      ];
      // A deleted or moved flag's metrics-stage item goes in the same transaction while it fits
      // (every single change, and most batches); a batch with no room left removes the rest
      // right after its commit.
      const removals = metricsStageRemovals(change.writes);
      const room = Math.max(0, MAX_TRANSACTION_ITEMS - planned.length - REVISION_ITEMS - eventMonthsOf(planned));
      for (const { project, name } of removals.slice(0, room)) {
        planned.push({ item: { Delete: { TableName: this.tableName, Key: keys.metricsStage(project, name) } }, meaning: { kind: 'metrics-stage' } });
      }
      // Another writer of the same aggregate wins the race: re-read and recompute (the service's
      // optimistic retry) rather than resend a transaction whose version is about to be stale.
      const lostRace = (index: number) => {
        const meaning = planned[index]?.meaning;
        return meaning?.kind === 'feature' && meaning.write.before !== undefined;
      };
      const outcome = await this.revisions.commit(planned.map((entry) => entry.item), touched, { lostRace });
      if (outcome.ok) {
        await this.removeMetricsStages(removals.slice(room));
        return { ok: true };
      }
      const meaning = planned[outcome.failedIndex]?.meaning;
      if (meaning?.kind !== 'project') return explain(meaning);
      if (round >= COUNT_ROUNDS) throw unresolvedConflict(new Error(`project ${meaning.project}'s feature count kept changing`));
    }
  }

  /**
   * The metrics-stage items of flags a committed batch deleted or moved that did not fit in its
   * transaction, each only while it still belongs to the same flag (its creation time), so the
   * item of a flag made again under the name meanwhile stays. The change is committed: a failure
   * here is logged and leaves an item that no reader counts (it names no flag of the project).
   */
  private async removeMetricsStages(removals: ReadonlyArray<{ project: string; name: string; createdAt: string }>): Promise<void> {
    for (const { project, name, createdAt } of removals) {
      try {
        await this.db.send(new DeleteCommand({
          TableName: this.tableName, Key: keys.metricsStage(project, name),
          ConditionExpression: 'attribute_not_exists(pk) OR createdAt = :createdAt', ExpressionAttributeValues: { ':createdAt': createdAt },
        }));
      } catch (error) {
        if (!isConditionFailed(error)) log.warn('Could not delete the metrics-stage item of a deleted or moved flag', { project, feature: name, error: String(error) });
      }
    }
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

  /**
   * The items that move each project's count of active features (dynamo-feature-counts.ts).
   * A create the limit applies to reads the count first and is refused here when it would pass
   * the limit; so is every change once a condition failed (`fresh`), which also gives a project
   * from before ADR 14 its shards.
   */
  private async projectItems(
    counts: NonNullable<FeatureCommit['projectFeatureCounts']>,
    fresh: boolean,
  ): Promise<{ planned: Array<{ item: TransactWriteItem; meaning: ItemMeaning }> } | { refused: CommitOutcome }> {
    const planned: Array<{ item: TransactWriteItem; meaning: ItemMeaning }> = [];
    for (const [project, { delta, applyLimit }] of Object.entries(counts)) {
      if (delta === 0) continue;
      const meaning = { kind: 'project', project, delta } as const;
      const creates = delta > 0 && applyLimit;
      if (!creates && !fresh) {
        planned.push({ item: this.featureCounts.changeItem(project, delta, { kind: 'exists' }), meaning });
        continue;
      }
      const state = await this.featureCounts.ensure(project);
      if (!state) return { refused: { ok: false, reason: 'project-missing', project } };
      if (!creates) {
        planned.push({ item: this.featureCounts.changeItem(project, delta, { kind: 'exists' }), meaning });
      } else if (state.limit === null) {
        planned.push({ item: this.featureCounts.changeItem(project, delta, { kind: 'unlimited' }), meaning });
      } else if (totalOf(state) + delta > state.limit) {
        return { refused: { ok: false, reason: 'feature-limit', project } };
      } else {
        planned.push({ item: this.featureCounts.changeItem(project, delta, { kind: 'within-limit', state }), meaning });
      }
    }
    return { planned };
  }
}

/**
 * A feature's copy in its project's partition follows the feature in the same transaction: put
 * with it, deleted with it, and moved when the feature changes project. No condition: the
 * feature item's version condition already orders the writers.
 */
function projectCopyItems(tableName: string, { before, after }: FeatureWrite): TransactWriteItem[] {
  const name = (after ?? before)?.name as string;
  const items: TransactWriteItem[] = [];
  if (before && before.project !== after?.project) {
    items.push({ Delete: { TableName: tableName, Key: keys.projectFeature(before.project, name) } });
  }
  if (after) items.push({ Put: { TableName: tableName, Item: { ...after, ...keys.projectFeature(after.project, name) } } });
  return items;
}

/**
 * The metrics-stage items (lib/features/dynamo-metrics-stages.ts) these writes leave behind: a
 * deleted flag's, and a moved flag's in the project it left. Read models prune an item only once
 * they hold the same flag at a newer version, which never happens for these. Once each.
 */
function metricsStageRemovals(writes: readonly FeatureWrite[]): Array<{ project: string; name: string; createdAt: string }> {
  const removals = new Map<string, { project: string; name: string; createdAt: string }>();
  for (const { before, after } of writes) {
    if (before && before.project !== after?.project) removals.set(`${before.project}\u0000${before.name}`, { project: before.project, name: before.name, createdAt: before.createdAt });
  }
  return [...removals.values()];
}

/** Items DynamoRevisionStore.commit adds to every transaction: the revision shard and its change-log entry. */
const REVISION_ITEMS = 2;

/** The event-count updates transactWriteDetailed adds: one per month the transaction's events fall in. */
function eventMonthsOf(planned: ReadonlyArray<{ item: TransactWriteItem; meaning: ItemMeaning }>): number {
  return new Set(planned.filter((entry) => entry.meaning.kind === 'event').map((entry) => entry.item.Put?.Item?.[KEY.partition])).size;
}

/** How often a commit decides its project counts again after one of their conditions failed. */
const COUNT_ROUNDS = 4;

/**
 * A tag a feature starts carrying joins the tags in use (GET /api/admin/tags) in the same
 * transaction, whichever use case put it there; it stays when features drop it, as in Unleash.
 */
function tagItems(tableName: string, writes: FeatureWrite[]): Array<{ item: TransactWriteItem; meaning: ItemMeaning }> {
  const added = new Map<string, Tag>();
  for (const { before, after } of writes) {
    const old = new Set((before?.tags ?? []).map(tagKey));
    for (const tag of after?.tags ?? []) if (!old.has(tagKey(tag))) added.set(tagKey(tag), tag);
  }
  return [...added.values()].map(({ type, value }) => ({
    item: { Put: { TableName: tableName, Item: { ...keys.tag(type, value), type, value } } },
    meaning: { kind: 'tag' } as const,
  }));
}

const tagKey = (tag: Tag) => `${tag.type}#${tag.value}`;

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
    default:
      throw new Error('A feature transaction failed on an item that has no condition');
  }
}

