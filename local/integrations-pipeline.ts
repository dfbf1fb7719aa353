import type { Composition } from '../lib/composition/composition.js';
import { integrationDeliveryOn } from '../lib/composition/integration-delivery.js';
import { changeEventsWritten } from '../lib/integrations/dynamo-stream-records.js';
import { INTEGRATIONS_MAX_RECEIVE_COUNT } from '../lib/integrations/delivery-sqs-queue.js';
import type { EventBus } from '../lib/integrations/store.js';
import { log } from '../lib/log.js';
import { outsideRequest } from '../lib/request-deadline.js';
import { LocalDeliveryQueue } from './integrations-queue.js';

/** An event put on the local stand-in for the EventBridge bus. */
export interface RecordedBusEntry {
  source: string;
  detailType: string;
  detail: string;
}

/** No EventBridge without AWS: the bus records what was put on it (and logs it), in order. */
export class RecordedEventBus implements EventBus {
  readonly entries: RecordedBusEntry[] = [];

  put(entry: RecordedBusEntry): Promise<void> {
    this.entries.push(entry);
    log.info('integration event put on the local event bus', { detailType: entry.detailType });
    return Promise.resolve();
  }
}

export interface LocalIntegrations {
  queue: LocalDeliveryQueue;
  bus: RecordedEventBus;
  /** Waits for the change events written so far to be queued, then delivers everything waiting (tests). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalIntegrationOptions {
  /** npm start delivers on timers; tests settle. */
  timers: boolean;
  /** The wait before a failed delivery's next attempt, doubled each time; npm start's default is 1 s (the cloud's 30 s). */
  backoffMs?: number;
  /** Slack's Web API, for a test's receiver. */
  slackApiUrl?: string;
}

const WRITES = new Set(['TransactWriteItemsCommand', 'PutItemCommand', 'BatchWriteItemCommand']);

/**
 * The integrations pipeline on a laptop, with the cloud's two stages: what the table's stream
 * hands the stream stage in the cloud, a middleware on the process's one DynamoDB client hands
 * it here, after each write that DynamoDB accepted, as the items it wrote (only the change
 * events among them are read). No write path needs to know: whatever records an event, its
 * delivery follows. Locally, events written by another process on the same table are not seen,
 * and what was not yet queued when the process stops is lost (the cloud's stream keeps it).
 */
export function startLocalIntegrations(c: Composition, options: LocalIntegrationOptions): LocalIntegrations {
  const base = options.backoffMs ?? 1000;
  const queue = new LocalDeliveryQueue('integration-deliveries', {
    maxReceiveCount: INTEGRATIONS_MAX_RECEIVE_COUNT, backoffMs: (receives) => base * 2 ** (receives - 1), timers: options.timers,
  });
  const bus = new RecordedEventBus();
  const delivery = integrationDeliveryOn(c, { queue, bus, ...(options.slackApiUrl ? { slackApiUrl: options.slackApiUrl } : {}) });
  queue.consume((message, attempt) => delivery.deliver(message, attempt));

  let streamed: Promise<void> = Promise.resolve();
  const stream = (items: Record<string, unknown>[]) => {
    const events = changeEventsWritten(items);
    if (events.length === 0) return;
    // In order, one batch after another, as a stream shard is read. In AWS the stream is read by
    // an invocation of its own, so here the fan-out runs as no request's: chained from inside the
    // writing request's call, it would carry that request's deadline, and once that has passed
    // (a fan-out waiting behind earlier ones) its reads would be refused as if stopped.
    streamed = outsideRequest(() => streamed.then(() => fanOutWithRetries(() => delivery.fanOut(events))));
  };
  c.store.db.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (WRITES.has(context.commandName ?? '')) stream(writtenItems(args.input));
      return result;
    },
    { step: 'finalizeRequest', priority: 'low', name: 'localIntegrationsStream', override: true },
  );
  return {
    queue,
    bus,
    settle: async () => {
      await streamed;
      await queue.drain();
    },
    stop: async () => {
      await streamed;
      await queue.stop();
    },
  };
}

/** The stream's retries: a batch that could not be queued is read again, a few times. */
async function fanOutWithRetries(fanOut: () => Promise<number>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await fanOut();
      return;
    } catch (error) {
      if (attempt >= 3) {
        log.error('change events not queued for integrations', { error: String(error) });
        return;
      }
    }
  }
}

/** The items a write put, in DynamoDB's attribute-value form. */
function writtenItems(input: unknown): Record<string, unknown>[] {
  const request = input as {
    Item?: Record<string, unknown>;
    TransactItems?: Array<{ Put?: { Item?: Record<string, unknown> } }>;
    RequestItems?: Record<string, Array<{ PutRequest?: { Item?: Record<string, unknown> } }>>;
  };
  const items: Record<string, unknown>[] = [];
  if (request.Item) items.push(request.Item);
  for (const action of request.TransactItems ?? []) if (action.Put?.Item) items.push(action.Put.Item);
  for (const writes of Object.values(request.RequestItems ?? {})) for (const write of writes) if (write.PutRequest?.Item) items.push(write.PutRequest.Item);
  return items;
}
