import { randomUUID } from 'node:crypto';
import type { MetricsQueue } from '../lib/client/metrics-stages.js';
import { MAX_MESSAGE_BYTES } from '../lib/client/metrics-aggregation.js';
import { log } from '../lib/log.js';
import { outsideRequest } from '../lib/request-deadline.js';

/**
 * An SQS standard queue and its Lambda event source mapping, as strict as AWS where it matters to
 * the metrics stages (ADR 15):
 * - a message over 256 KB is refused (SQS's InvalidParameterValue), nothing stored;
 * - a batch holds at most `batchSize` messages (10,000 with a window) and at most 6 MB of records
 *   (Lambda's invocation payload; each record carries about 1 KB of SQS attributes besides its body);
 * - a batch is delivered when the window closes (or at `drain()`), and deleted only when the
 *   consumer succeeds; a failed batch's messages are delivered again (at least once), and after
 *   `maxReceiveCount` receives they move to the dead-letter list.
 * Timing is the one thing left to the caller: `npm start` closes windows on a timer, tests call
 * `drain()` so no assertion waits on a clock.
 */
export interface LocalQueueOptions {
  /** Messages per batch; SQS allows up to 10,000 with a batching window. */
  batchSize?: number;
  /** The batching window in ms; 0 closes no window on a timer (tests drain). */
  windowMs?: number;
  /** Receives before a message moves to the dead-letter list; the stack's redrive policy says 5. */
  maxReceiveCount?: number;
}

export type BatchConsumer = (bodies: string[]) => Promise<void>;

interface StoredMessage {
  id: string;
  body: string;
  receiveCount: number;
}

/** Lambda's synchronous invocation payload limit, which caps an event source mapping's batch. */
export const MAX_BATCH_PAYLOAD_BYTES = 6 * 1024 * 1024;
/** What an SQS record carries besides its body (message id, receipt handle, attributes, MD5, ARN). */
export const RECORD_OVERHEAD_BYTES = 1024;
export const MAX_BATCH_SIZE = 10_000;

export interface LocalQueueStats {
  sent: number;
  batches: number;
  delivered: number;
  redelivered: number;
  deadLettered: number;
}

export class LocalMetricsQueue implements MetricsQueue {
  private readonly visible: StoredMessage[] = [];
  private consumer: BatchConsumer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly windowMs: number;
  private readonly maxReceiveCount: number;
  readonly deadLetters: string[] = [];
  readonly stats: LocalQueueStats = { sent: 0, batches: 0, delivered: 0, redelivered: 0, deadLettered: 0 };

  constructor(
    readonly name: string,
    options: LocalQueueOptions = {},
  ) {
    this.batchSize = options.batchSize ?? MAX_BATCH_SIZE;
    if (this.batchSize < 1 || this.batchSize > MAX_BATCH_SIZE) throw new Error(`batchSize must be 1..${MAX_BATCH_SIZE}`);
    this.windowMs = options.windowMs ?? 0;
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
  }

  /** The event source mapping: the function each batch goes to. */
  consume(consumer: BatchConsumer): void {
    this.consumer = consumer;
  }

  async send(body: string): Promise<void> {
    const bytes = Buffer.byteLength(body);
    if (bytes > MAX_MESSAGE_BYTES) {
      throw Object.assign(new Error(`One or more parameters are invalid. Reason: Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`), {
        name: 'InvalidParameterValue',
      });
    }
    this.visible.push({ id: randomUUID(), body, receiveCount: 0 });
    this.stats.sent += 1;
    this.openWindow();
  }

  /** Messages waiting (not in a batch being processed). */
  get depth(): number {
    return this.visible.length;
  }

  /**
   * Closes the window now: delivers every waiting message in batches until none is left, failed
   * batches again until they succeed or their messages are dead-lettered. Resolves when done.
   */
  drain(): Promise<void> {
    this.clearWindow();
    const run = this.running.then(() => this.deliverAll());
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Stops the window's timer and delivers what is waiting, so a stopping runtime keeps what it accepted. */
  async stop(): Promise<void> {
    this.clearWindow();
    if (this.consumer) await this.drain().catch((error: unknown) => log.error('metrics queue not drained at stop', { queue: this.name, error: String(error) }));
  }

  private openWindow(): void {
    if (this.windowMs <= 0 || !this.consumer || this.timer) return;
    // Armed as no request's: the window's batch is delivered after the request that opened it was
    // answered (an Edge's metrics are a request with a deadline), and in AWS as an invocation of its own.
    this.timer = outsideRequest(() => setTimeout(() => {
      this.timer = undefined;
      this.drain().catch((error: unknown) => log.error('metrics queue delivery failed', { queue: this.name, error: String(error) }));
    }, this.windowMs));
    this.timer.unref();
  }

  private clearWindow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async deliverAll(): Promise<void> {
    const consumer = this.consumer;
    if (!consumer) throw new Error(`queue ${this.name} has no consumer`);
    while (this.visible.length > 0) {
      const batch = this.takeBatch();
      this.stats.batches += 1;
      this.stats.delivered += batch.length;
      for (const message of batch) message.receiveCount += 1;
      try {
        await consumer(batch.map((message) => message.body));
      } catch (error) {
        log.warn('metrics batch failed; its messages will be delivered again', { queue: this.name, messages: batch.length, error: String(error) });
        this.returnFailed(batch);
      }
    }
  }

  /** The next batch: in order, up to the batch size and the invocation payload. */
  private takeBatch(): StoredMessage[] {
    let bytes = 0;
    let count = 0;
    for (const message of this.visible) {
      const size = Buffer.byteLength(message.body) + RECORD_OVERHEAD_BYTES;
      if (count === this.batchSize || (count > 0 && bytes + size > MAX_BATCH_PAYLOAD_BYTES)) break;
      bytes += size;
      count += 1;
    }
    return this.visible.splice(0, count);
  }

  /** At least once: a failed batch's messages wait again, or go to the dead letters after too many receives. */
  private returnFailed(batch: StoredMessage[]): void {
    for (const message of batch) {
      if (message.receiveCount >= this.maxReceiveCount) {
        this.deadLetters.push(message.body);
        this.stats.deadLettered += 1;
      } else {
        this.visible.push(message);
        this.stats.redelivered += 1;
      }
    }
  }
}
