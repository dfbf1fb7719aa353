import type { DynamoDBStreamEvent } from 'aws-lambda';
import { createComposition } from '../../lib/composition/composition.js';
import { queuedIntegrationDelivery } from '../../lib/composition/integration-delivery.js';
import { loadConfig } from '../../lib/config.js';
import { changeEventsOf, type StreamRecord } from '../../lib/integrations/dynamo-stream-records.js';

let delivery: ReturnType<typeof queuedIntegrationDelivery> | undefined;

/**
 * The integrations' stream stage: the table's stream, filtered to newly written change events,
 * hands it a batch; it queues one delivery per integration subscribed to each. A throw makes
 * Lambda read the batch again (split in halves), so no recorded event is skipped.
 */
export const handler = async (event: DynamoDBStreamEvent): Promise<void> => {
  delivery ??= queuedIntegrationDelivery(createComposition(loadConfig(process.env)));
  await delivery.fanOut(changeEventsOf(event.Records as StreamRecord[]));
};
