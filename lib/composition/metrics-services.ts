import { DynamoMetricsStore } from '../client/dynamo-metrics-store.js';
import { batchOf, MetricsWriter, sumStage, type MetricsQueue, type UnknownFlagSink } from '../client/metrics-stages.js';
import type { MetricsStore } from '../client/store.js';
import { SqsMetricsQueue } from '../client/metrics-sqs-queue.js';
import { MetricsLifecycle } from '../client/metrics-lifecycle.js';
import { DynamoEnvironmentStore } from '../environments/dynamo-store.js';
import { DynamoMetricsStageRecorder } from '../features/dynamo-metrics-stages.js';
import { DynamoFlagHistory } from '../unknown-flags/dynamo-flag-history.js';
import { DynamoUnknownFlagStore } from '../unknown-flags/dynamo-store.js';
import { UnknownFlagRecorder } from '../unknown-flags/recorder.js';
import type { Composition } from './composition.js';

/** The two metrics stages (ADR 15) over a store and the queue of sums; the local runtime and the stage functions share it. */
export function metricsStages(store: MetricsStore, sums: MetricsQueue, lifecycle?: MetricsLifecycle, unknownFlags?: UnknownFlagSink) {
  const writer = new MetricsWriter(store, { requeue: sums, lifecycle, unknownFlags });
  return {
    /** A batch of reports → its sums on the sums queue. */
    sum: (bodies: string[]) => sumStage(bodies, sums),
    /** A batch of sums → one counter update per key, last-seen once per interval, the unknown names; the rest back to the queue. */
    store: (bodies: string[], startWhile?: () => boolean) => {
      const { entries, unknown } = batchOf(bodies);
      return writer.write(entries, startWhile, unknown);
    },
  };
}

/**
 * The stage functions' stages: the table and the sums queue from the configuration. The metrics
 * adapter is built here rather than taken from stores.ts, whose other adapters' modules the
 * stage functions would otherwise bundle; a stage function's process builds no other.
 */
export function queuedMetricsStages(c: Composition) {
  if (!c.config.metricsSumsQueueUrl) throw new Error('Invalid configuration: METRICS_SUMS_QUEUE_URL is required by the metrics stages');
  return metricsStages(
    new DynamoMetricsStore(c.store.db, c.store.tableName), new SqsMetricsQueue(c.config.metricsSumsQueueUrl, c.config.region), metricsLifecycle(c),
    unknownFlagRecorder(c),
  );
}

/** The lifecycle stages SDK metrics move (pre-live, live), on the composition's table; one per process keeps its memory. */
export function metricsLifecycle(c: Composition): MetricsLifecycle {
  const environments = new DynamoEnvironmentStore(c.store.db, c.store.tableName);
  const clock = c.now;
  return new MetricsLifecycle(
    new DynamoMetricsStageRecorder(c.store.db, c.store.tableName), () => environments.list(), clock ? () => clock().getTime() : Date.now,
  );
}

/** Where the store stage keeps the names reported that are no flag; one per process keeps its memory. */
export function unknownFlagRecorder(c: Composition): UnknownFlagRecorder {
  const clock = c.now;
  return new UnknownFlagRecorder(
    new DynamoUnknownFlagStore(c.store.db, c.store.tableName), new DynamoFlagHistory(c.store.db, c.store.tableName), undefined,
    clock ? () => clock().getTime() : Date.now,
  );
}
