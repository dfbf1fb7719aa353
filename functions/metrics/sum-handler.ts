import type { SQSEvent } from 'aws-lambda';
import { createMetricsStages } from '../../lib/composition/metrics-services.js';
import { loadConfig } from '../../lib/config.js';

let stages: ReturnType<typeof createMetricsStages> | undefined;

/**
 * The metrics sum stage (ADR 15): the `reports` queue's event source mapping hands it a batch of
 * SDK reports; it queues their sums. A throw sends the whole batch back to the queue.
 */
export const handler = async (event: SQSEvent): Promise<void> => {
  stages ??= createMetricsStages(loadConfig(process.env));
  await stages.sum(event.Records.map((record) => record.body));
};
