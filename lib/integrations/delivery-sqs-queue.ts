import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryMessage } from './model.js';
import type { DeliveryQueue } from './store.js';

/** SendMessageBatch's limit. */
const BATCH_ENTRIES = 10;

/**
 * The deliveries queue in the cloud (SQS standard). A batch that SQS refuses in part throws,
 * so the stream stage's batch is read again and nothing queued is lost (some may be queued
 * twice: deliveries are at least once).
 */
export class SqsDeliveryQueue implements DeliveryQueue {
  private client: Promise<{ sqs: SQSClient; SendMessageBatchCommand: typeof import('@aws-sdk/client-sqs').SendMessageBatchCommand }> | undefined;

  constructor(
    private readonly queueUrl: string,
    private readonly region: string,
  ) {}

  async send(messages: DeliveryMessage[]): Promise<void> {
    const { sqs, SendMessageBatchCommand } = await this.connect();
    for (let start = 0; start < messages.length; start += BATCH_ENTRIES) {
      const entries = messages.slice(start, start + BATCH_ENTRIES).map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) }));
      const answer = await sqs.send(new SendMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries }));
      if ((answer.Failed ?? []).length > 0) throw new Error(`SQS refused ${answer.Failed?.length} deliveries: ${answer.Failed?.map((failure) => failure.Code).join(', ')}`);
    }
  }

  private connect() {
    this.client ??= import('@aws-sdk/client-sqs').then(({ SQSClient: Client, SendMessageBatchCommand }) => ({ sqs: new Client({ region: this.region }), SendMessageBatchCommand }));
    return this.client;
  }
}

/** Receives of one delivery before it moves to the dead-letter queue: the first try and seven more. */
export const INTEGRATIONS_MAX_RECEIVE_COUNT = 8;

/**
 * How long a failed delivery waits before its next attempt: 30 s, doubling each receive, at
 * most SQS's longest visibility timeout of 12 hours. With the queue's 8 receives, a receiver
 * that stays down for about an hour still gets the event.
 */
export function retryDelaySeconds(receiveCount: number): number {
  return Math.min(30 * 2 ** Math.max(0, receiveCount - 1), 12 * 60 * 60);
}

/** Makes a failed message visible again after its backoff, instead of after the whole visibility timeout. */
export async function delayRedelivery(queueUrl: string, region: string, receiptHandle: string, seconds: number): Promise<void> {
  const { SQSClient, ChangeMessageVisibilityCommand } = await import('@aws-sdk/client-sqs');
  await new SQSClient({ region }).send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
