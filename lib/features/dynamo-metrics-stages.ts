import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Feature } from './model.js';
import type { MetricsStageRecorder } from './ports.js';
import { stagesFromMetrics, stagesOf, withStagesFromMetrics } from './rules/lifecycle.js';
import { keys } from '../store/table-design.js';
import { transactWriteDetailed } from '../store/transact.js';

/** A flag written by someone else between the read and the write is read again this many times. */
const ATTEMPTS = 3;

/**
 * The lifecycle stages SDK metrics define, written on the stored flag and its project copy
 * (ADR 17) in one transaction conditioned on the version read, so a concurrent change of the flag
 * is never overwritten; the version moves, so that change's own writer re-reads and keeps the
 * stage. The revision does not move: SDK metrics never invalidate SDKs' ETags (the stages are
 * not in their payload). So the admin read model, kept per revision (lifecycle counts, search,
 * project status), shows the stage from the next change that moves the revision; the flag's own
 * reads (its page, its lifecycle) show it at once.
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
      ]);
      if (outcome.ok) return { stages: lifecycle.map((stage) => stage.stage) };
      if (attempt >= ATTEMPTS) throw new Error(`flag ${name} kept changing while its lifecycle stage from metrics was recorded`);
    }
  }
}
