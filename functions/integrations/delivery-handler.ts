import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createComposition } from '../../lib/composition/composition.js';
import { queuedIntegrationDelivery } from '../../lib/composition/integration-delivery.js';
import { loadConfig } from '../../lib/config.js';
import { delayRedelivery, retryDelaySeconds } from '../../lib/integrations/delivery-sqs-queue.js';
import type { DeliveryMessage } from '../../lib/integrations/model.js';
import { log } from '../../lib/log.js';

let delivery: ReturnType<typeof queuedIntegrationDelivery> | undefined;
let config: ReturnType<typeof loadConfig> | undefined;

/**
 * The integrations' delivery stage: each message is one event for one integration. A failed
 * delivery is answered as a batch item failure, after its visibility is set to its backoff, so
 * SQS offers it again then; after the redrive policy's receives it goes to the dead-letter
 * queue, whose alarm says so. Messages that succeeded are deleted by Lambda.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  config ??= loadConfig(process.env);
  delivery ??= queuedIntegrationDelivery(createComposition(config));
  const { integrationsQueueUrl, region } = config;
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const attempt = Number(record.attributes.ApproximateReceiveCount) || 1;
    try {
      const outcome = await delivery.deliver(JSON.parse(record.body) as DeliveryMessage, attempt);
      if (!outcome.retry) continue;
    } catch (error) {
      log.error('integration delivery could not be attempted', { messageId: record.messageId, error: String(error) });
    }
    failures.push({ itemIdentifier: record.messageId });
    await delayRedelivery(integrationsQueueUrl as string, region, record.receiptHandle, retryDelaySeconds(attempt))
      .catch((error: unknown) => log.warn('backoff not set; the visibility timeout applies', { error: String(error) }));
  }
  return { batchItemFailures: failures };
};
