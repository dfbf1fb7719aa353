import type { SQSClient } from '@aws-sdk/client-sqs';
import { ServiceUnavailable } from '../errors.js';
import type { MetricsQueue } from './metrics-stages.js';

/**
 * The metrics queue in the cloud: an SQS standard queue (ADR 15). The SQS client is loaded on
 * the first report, not at the client function's start, so the SDK poll's cold start does not
 * pay for it (ADR 9; the Lambda runtime carries the SDK).
 */
export class SqsMetricsQueue implements MetricsQueue {
  private client: Promise<{ sqs: SQSClient; SendMessageCommand: typeof import('@aws-sdk/client-sqs').SendMessageCommand }> | undefined;

  constructor(
    private readonly queueUrl: string,
    private readonly region: string,
  ) {}

  async send(body: string): Promise<void> {
    const { sqs, SendMessageCommand } = await this.connect();
    try {
      await sqs.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: body }));
    } catch (error) {
      // After the SDK's own retries: SQS is not taking messages now; the caller may send again.
      throw new ServiceUnavailable(`The metrics queue is unavailable (${(error as Error).name ?? 'error'}); send the report again.`);
    }
  }

  private connect() {
    this.client ??= import('@aws-sdk/client-sqs').then(({ SQSClient: Client, SendMessageCommand }) => ({
      sqs: new Client({ region: this.region }),
      SendMessageCommand,
    }));
    return this.client;
  }
}
