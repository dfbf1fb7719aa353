import { entriesOf, directMetricsQueue, MetricsWriter, sumStage, type MetricsQueue } from '../client/metrics-stages.js';
import type { MetricsStore } from '../client/store.js';
import { SqsMetricsQueue } from '../client/metrics-sqs-queue.js';
import type { Composition } from './composition.js';
import { metricsStore } from './stores.js';

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

/** The stage functions' stages: the table and the sums queue from the configuration. */
export function queuedMetricsStages(c: Composition) {
  if (!c.config.metricsSumsQueueUrl) throw new Error('Invalid configuration: METRICS_SUMS_QUEUE_URL is required by the metrics stages');
  return metricsStages(c.once(metricsStore), new SqsMetricsQueue(c.config.metricsSumsQueueUrl, c.config.region));
}

/**
 * Where SDK usage reports go: the queue the runtime gives, else SQS when configured (the cloud,
 * ADR 15), else through both metrics stages in the request (tests, `npm run invoke`).
 */
export function usageQueue(c: Composition): MetricsQueue {
  if (c.metricsQueue) return c.metricsQueue;
  if (c.config.metricsQueueUrl) return new SqsMetricsQueue(c.config.metricsQueueUrl, c.config.region);
  return directMetricsQueue(new MetricsWriter(c.once(metricsStore)));
}
