import { directMetricsQueue, MetricsWriter, type MetricsQueue } from '../../client/metrics-stages.js';
import { SqsMetricsQueue } from '../../client/metrics-sqs-queue.js';
import type { ClientPorts } from '../../client/ports.js';
import { clientSlice } from '../../client/slice.js';
import type { Composition } from '../composition.js';
import { revisionClock } from '../edge.js';
import { featureSnapshots } from '../feature-snapshots.js';
import { metricsStore } from '../stores.js';

/** The SDK API's slice, once per composition: the process's feature snapshot, revision clock and usage queue. */
export const clients = (c: Composition) => clientSlice(c, clientPorts(c));

export function clientPorts(c: Composition): ClientPorts {
  return { snapshots: c.once(featureSnapshots), revision: c.once(revisionClock), usageQueue: c.once(usageQueue) };
}

/**
 * Where SDK usage reports go: the queue the runtime gives, else SQS when configured (the cloud,
 * ADR 15), else through both metrics stages in the request (tests, `npm run invoke`). In the
 * request only counters and last-seen are written, so a report costs its counter writes alone;
 * lifecycle stages move in the queued store stage (`npm start`, the cloud).
 */
function usageQueue(c: Composition): MetricsQueue {
  if (c.metricsQueue) return c.metricsQueue;
  if (c.config.metricsQueueUrl) return new SqsMetricsQueue(c.config.metricsQueueUrl, c.config.region);
  return directMetricsQueue(new MetricsWriter(c.once(metricsStore)));
}
