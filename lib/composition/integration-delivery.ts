import { IntegrationDelivery } from '../integrations/delivery.js';
import { SqsDeliveryQueue } from '../integrations/delivery-sqs-queue.js';
import { DynamoDeliveryLog, DynamoIntegrationStore } from '../integrations/dynamo-store.js';
import { EventBridgeBus } from '../integrations/eventbridge-bus.js';
import { NodeHttpPoster } from '../integrations/http-poster.js';
import { SLACK_API_URL } from '../integrations/messages.js';
import type { DeliveryQueue, EventBus } from '../integrations/store.js';
import { publicUrlOf } from '../config.js';
import type { Composition } from './composition.js';
import { secretBox } from './session-edge.js';

export interface DeliveryParts {
  queue: DeliveryQueue;
  bus: EventBus | undefined;
  /** Slack's Web API; tests point it at a receiver of their own. */
  slackApiUrl?: string;
}

/** The integrations' two stages on given parts: the local runtime passes its queue and its record of the bus. */
export function integrationDeliveryOn(c: Composition, parts: DeliveryParts): IntegrationDelivery {
  return new IntegrationDelivery({
    integrations: new DynamoIntegrationStore(c.store.db, c.store.tableName),
    log: new DynamoDeliveryLog(c.store.db, c.store.tableName),
    queue: parts.queue,
    http: new NodeHttpPoster({ allowPrivateUrls: c.config.integrationsAllowPrivateUrls }),
    bus: parts.bus,
    sealer: c.once(secretBox),
  }, { publicUrl: publicUrlOf(c.config), slackApiUrl: parts.slackApiUrl ?? SLACK_API_URL }, c.now);
}

/** The stage functions' delivery: SQS and EventBridge from the configuration. */
export function queuedIntegrationDelivery(c: Composition): IntegrationDelivery {
  const queueUrl = c.config.integrationsQueueUrl;
  if (!queueUrl) throw new Error('Invalid configuration: INTEGRATIONS_QUEUE_URL is required by the integrations functions');
  const bus = c.config.eventBusName ? new EventBridgeBus(c.config.eventBusName, c.config.region) : undefined;
  return integrationDeliveryOn(c, { queue: new SqsDeliveryQueue(queueUrl, c.config.region), bus });
}
