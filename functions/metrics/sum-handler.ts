import type { SQSEvent } from 'aws-lambda';
import { createComposition } from '../../lib/composition/composition.js';
import { queuedMetricsStages } from '../../lib/composition/metrics-services.js';
import { loadConfig } from '../../lib/config.js';

let stages: ReturnType<typeof queuedMetricsStages> | undefined;

/**
 * The metrics sum stage (ADR 15): the `reports` queue's event source mapping hands it a batch of
 * SDK reports; it queues their sums. A throw sends the whole batch back to the queue.
 */
export const handler = async (event: SQSEvent): Promise<void> => {
  stages ??= createComposition(loadConfig(process.env)).once(queuedMetricsStages);
  await stages.sum(event.Records.map((record) => record.body));
};
