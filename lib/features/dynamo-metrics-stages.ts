import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Feature } from './model.js';
import type { MetricsStageRecorder } from './ports.js';
import type { MetricsStageMark } from './views.js';
import { stagesFromMetrics, stagesOf, withStagesFromMetrics, type LifecycleStage } from './rules/lifecycle.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';
import { isConditionFailed } from '../store/dynamo-errors.js';

/** A flag written by someone else between the read and the write is read again this many times. */
const ATTEMPTS = 3;

/**
 * The lifecycle stages SDK metrics define, written on the stored flag and its project copy
 * (ADR 17) in one transaction conditioned on the version read, so a concurrent change of the flag
 * is never overwritten; the version moves, so that change's own writer re-reads and keeps the
 * stage. The revision does not move: SDK metrics never invalidate SDKs' ETags (the stages are
 * not in their payload). So the admin read model, kept per revision, shows the stage only from
 * the next change that moves the revision; the same transaction writes the stages and the new
 * version to the project's metrics-stage item (`keys.metricsStage`), which readers of the read
 * model lay over it (DynamoMetricsStageMarks) to show the stage at once.
 */
export class DynamoMetricsStageRecorder implements MetricsStageRecorder {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async recordFromMetrics(name: string, environment: { name: string; type: string }, at: string): Promise<'unknown' | { stages: string[] }> {
    for (let attempt = 1; ; attempt++) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.feature(name), ConsistentRead: true }));
      if (!Item) return 'unknown';
      const feature = Item as unknown as Feature;
      const lifecycle = withStagesFromMetrics(feature, stagesFromMetrics(feature, environment), at);
      if (!lifecycle) return { stages: stagesOf(feature).map((stage) => stage.stage) };
      const update = {
        UpdateExpression: 'SET lifecycle = :lifecycle, version = :next',
        ExpressionAttributeValues: { ':lifecycle': lifecycle, ':next': feature.version + 1, ':version': feature.version },
        ConditionExpression: 'version = :version',
      };
      const outcome = await transactWriteDetailed(this.db, [
        { Update: { TableName: this.tableName, Key: keys.feature(name), ...update } },
        { Update: { TableName: this.tableName, Key: keys.projectFeature(feature.project, name), ...update } },
        // No condition of its own: the flag's version condition above orders the writers.
        { Update: { TableName: this.tableName, Key: keys.metricsStage(feature.project, name), ...markUpdate(feature, lifecycle, feature.version + 1) } },
      ]);
      if (outcome.ok) return { stages: lifecycle.map((stage) => stage.stage) };
      if (attempt >= ATTEMPTS) throw new Error(`flag ${name} kept changing while its lifecycle stage from metrics was recorded`);
    }
  }
}

/** One project's metrics-stage items: `complete` once every flag whose stages metrics moved has one. */
export interface ProjectMetricsStages {
  complete: boolean;
  marks: ReadonlyMap<string, MetricsStageMark>;
}

/** Metrics-stage items a transaction writes while a project's are completed (DynamoDB's limit is 100 a transaction). */
const COMPLETING_PER_TRANSACTION = 100;
/** Transactions in flight while a project's items are completed. */
const COMPLETING_IN_FLIGHT = 10;
/** Projects whose items are read at the same time when many are (one strongly consistent Query each). */
const READING_IN_FLIGHT = 16;
/** Items one `prune` deletes at most (all at once): the rest wait for later reads, which find them passed again. */
export const PRUNED_PER_CALL = 25;

/**
 * Reads a project's metrics-stage items (one strongly consistent Query of a partition of small
 * items, one a flag that metrics moved), and completes them for a project of a table from before
 * they were written: from the project's stored flags, once per project.
 */
export class DynamoMetricsStageMarks {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async of(project: string): Promise<ProjectMetricsStages> {
    const marks = new Map<string, MetricsStageMark>();
    let complete = false;
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.metricsStagesOf(project) },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }));
      for (const item of page.Items ?? []) {
        if (item.sk === keys.metricsStagesComplete(project).sk) complete = true;
        else marks.set((item.sk as string).slice(keys.metricsStage(project, '').sk.length), { project, lifecycle: item.lifecycle as LifecycleStage[], version: item.version as number, createdAt: item.createdAt as string });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return { complete, marks };
  }

  /** The items of each of these projects (each named once), in that order, READING_IN_FLIGHT projects at a time. */
  async ofMany(projects: readonly string[]): Promise<Array<ReadonlyMap<string, MetricsStageMark>>> {
    const unique = [...new Set(projects)];
    const read = new Array<ReadonlyMap<string, MetricsStageMark>>(unique.length);
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(READING_IN_FLIGHT, unique.length) }, async () => {
      while (next < unique.length) {
        const index = next++;
        read[index] = (await this.of(unique[index] as string)).marks;
      }
    }));
    return read;
  }

  /**
   * Gives every flag of `stored` (the project's flags as its partition holds them, read after
   * `of` found the items incomplete) that entered a stage metrics move its item, then marks the
   * project complete. A flag that reached such a stage some other way gets one too: an item
   * changes nothing for a reader whose copy of the flag is as new. An item is never moved back
   * to an older version, so a recorder that wrote meanwhile keeps its own.
   */
  async complete(project: string, stored: readonly Feature[]): Promise<void> {
    const moved = stored.filter((feature) => feature.project === project && stagesOf(feature).some((stage) => stage.stage === 'pre-live' || stage.stage === 'live'));
    const chunks: Feature[][] = [];
    for (let i = 0; i < moved.length; i += COMPLETING_PER_TRANSACTION) chunks.push(moved.slice(i, i + COMPLETING_PER_TRANSACTION));
    let next = 0;
    await Promise.all(Array.from({ length: COMPLETING_IN_FLIGHT }, async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] as Feature[];
        const written = await transactWriteDetailed(this.db, chunk.map((feature) => ({ Update: this.completingUpdate(project, feature) })));
        // A recorder wrote one of them meanwhile: each on its own, keeping whatever is newer.
        if (!written.ok) for (const feature of chunk) await this.completeOne(project, feature);
      }
    }));
    await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: keys.metricsStagesComplete(project), UpdateExpression: 'SET completedAt = :at', ExpressionAttributeValues: { ':at': new Date().toISOString() } }));
  }

  /**
   * Deletes items the read model has passed (`passedMarks`), each only at the version found, so
   * that an item a recorder wrote meanwhile stays: the project's Query stays a few small items.
   * At most PRUNED_PER_CALL of them, so one read never sends a burst of deletes.
   */
  async prune(passed: ReadonlyArray<{ name: string; mark: MetricsStageMark }>): Promise<void> {
    await Promise.all(passed.slice(0, PRUNED_PER_CALL).map(async ({ name, mark }) => {
      try {
        await this.db.send(new DeleteCommand({
          TableName: this.tableName, Key: keys.metricsStage(mark.project, name),
          ConditionExpression: 'version = :version', ExpressionAttributeValues: { ':version': mark.version },
        }));
      } catch (error) {
        if (!isConditionFailed(error)) throw error;
      }
    }));
  }

  private async completeOne(project: string, feature: Feature): Promise<void> {
    try {
      await this.db.send(new UpdateCommand(this.completingUpdate(project, feature)));
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  /** The flag's item as `feature` holds it, unless the item holds a newer version of the same flag (the same one is written again unchanged). */
  private completingUpdate(project: string, feature: Feature) {
    return {
      TableName: this.tableName, Key: keys.metricsStage(project, feature.name), ...markUpdate(feature, stagesOf(feature), feature.version),
      ConditionExpression: 'attribute_not_exists(version) OR version <= :next OR createdAt <> :createdAt',
    };
  }
}

function markUpdate(feature: Feature, lifecycle: LifecycleStage[], version: number) {
  return {
    UpdateExpression: 'SET lifecycle = :lifecycle, version = :next, createdAt = :createdAt',
    ExpressionAttributeValues: { ':lifecycle': lifecycle, ':next': version, ':createdAt': feature.createdAt },
  };
}
