import type { AppConfig } from '../config.js';
import { DynamoMetricsStore } from '../client/dynamo-metrics-store.js';
import { entriesOf, MetricsWriter, sumStage, type MetricsQueue } from '../client/metrics-stages.js';
import type { MetricsStore } from '../client/store.js';
import { SqsMetricsQueue } from '../client/metrics-sqs-queue.js';
import { connectStore } from '../store/context.js';

/** The two metrics stages (ADR 15) over a store and the queue of sums; the local runtime and the stage functions share it. */
export function metricsStages(store: MetricsStore, sums: MetricsQueue) {
  const writer = new MetricsWriter(store, { requeue: sums });
  return {
    /** A batch of reports → its sums on the sums queue. */
    sum: (bodies: string[]) => sumStage(bodies, sums),
    /** A batch of sums → one counter update per key, last-seen once per interval; the rest back to the queue. */
    store: (bodies: string[], startWhile?: () => boolean) => writer.write(entriesOf(bodies), startWhile),
  };
}

/** The stage functions' root: the table and the sums queue from the configuration. */
export function createMetricsStages(config: AppConfig) {
  if (!config.metricsSumsQueueUrl) throw new Error('Invalid configuration: METRICS_SUMS_QUEUE_URL is required by the metrics stages');
  const { db, tableName } = connectStore(config);
  return metricsStages(new DynamoMetricsStore(db, tableName), new SqsMetricsQueue(config.metricsSumsQueueUrl, config.region));
}
