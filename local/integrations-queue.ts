import { randomUUID } from 'node:crypto';
import type { DeliveryMessage } from '../lib/integrations/model.js';
import type { DeliveryQueue } from '../lib/integrations/store.js';
import { log } from '../lib/log.js';
import { outsideRequest } from '../lib/request-deadline.js';

/** SQS's largest message. */
const MAX_MESSAGE_BYTES = 256 * 1024;

export type DeliveryConsumer = (message: DeliveryMessage, attempt: number) => Promise<{ retry: boolean }>;

export interface LocalDeliveryQueueOptions {
  /** Receives before a message moves to the dead-letter list; the stack's redrive policy says the same. */
  maxReceiveCount: number;
  /** How long a failed message waits before it is offered again, by its receive count. */
  backoffMs: (receiveCount: number) => number;
  /** Whether waiting messages are delivered on timers (npm start) or only when drained (tests). */
  timers: boolean;
}

interface StoredMessage {
  id: string;
  body: string;
  receiveCount: number;
  visibleAt: number;
}

/**
 * The deliveries queue as SQS and Lambda's event source mapping treat it, for one message at a
 * time: a message over 256 KB is refused; each receive counts; a message whose delivery answers
 * `retry` (or throws) is offered again after its backoff, and after `maxReceiveCount` receives
 * it moves to the dead-letter list; the others are deleted. Time is the caller's: `npm start`
 * delivers on timers, tests call `drain()`, which delivers until nothing waits, backoffs
 * included, so no assertion waits on a clock.
 */
export class LocalDeliveryQueue implements DeliveryQueue {
  private readonly waiting: StoredMessage[] = [];
  private consumer: DeliveryConsumer | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  readonly deadLetters: DeliveryMessage[] = [];
  readonly stats = { sent: 0, received: 0, retried: 0, deadLettered: 0 };

  constructor(
    readonly name: string,
    private readonly options: LocalDeliveryQueueOptions,
  ) {}

  /** The event source mapping: the function each message goes to. */
  consume(consumer: DeliveryConsumer): void {
    this.consumer = consumer;
  }

  async send(messages: DeliveryMessage[]): Promise<void> {
    for (const message of messages) {
      const body = JSON.stringify(message);
      if (Buffer.byteLength(body) > MAX_MESSAGE_BYTES) {
        throw Object.assign(new Error(`One or more parameters are invalid. Reason: Message must be shorter than ${MAX_MESSAGE_BYTES} bytes.`), { name: 'InvalidParameterValue' });
      }
      this.waiting.push({ id: randomUUID(), body, receiveCount: 0, visibleAt: Date.now() });
      this.stats.sent += 1;
    }
    this.schedule();
  }

  get depth(): number {
    return this.waiting.length;
  }

  /** Delivers every waiting message, as if each backoff had passed, until none is left. */
  drain(): Promise<void> {
    return this.serially(() => this.deliver(() => true));
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.options.timers = false;
    await this.running;
  }

  private serially(work: () => Promise<void>): Promise<void> {
    const run = this.running.then(work);
    this.running = run.catch(() => undefined);
    return run;
  }

  /** Delivers the messages `due` picks, again and again while any is left that it picks. */
  private async deliver(due: (message: StoredMessage) => boolean): Promise<void> {
    const consumer = this.consumer;
    if (!consumer) throw new Error(`queue ${this.name} has no consumer`);
    for (let next = this.waiting.find(due); next; next = this.waiting.find(due)) {
      this.waiting.splice(this.waiting.indexOf(next), 1);
      next.receiveCount += 1;
      this.stats.received += 1;
      let retry: boolean;
      try {
        ({ retry } = await consumer(JSON.parse(next.body) as DeliveryMessage, next.receiveCount));
      } catch (error) {
        log.warn('integration delivery threw; it will be offered again', { queue: this.name, error: String(error) });
        retry = true;
      }
      if (retry) this.returnFailed(next);
    }
  }

  private returnFailed(message: StoredMessage): void {
    if (message.receiveCount >= this.options.maxReceiveCount) {
      this.deadLetters.push(JSON.parse(message.body) as DeliveryMessage);
      this.stats.deadLettered += 1;
      log.error('integration delivery moved to the dead-letter list', { queue: this.name, receives: message.receiveCount });
      return;
    }
    message.visibleAt = Date.now() + this.options.backoffMs(message.receiveCount);
    this.waiting.push(message);
    this.stats.retried += 1;
  }

  /** With timers: a run when the earliest message becomes visible. */
  private schedule(): void {
    if (!this.options.timers || !this.consumer || this.waiting.length === 0) return;
    if (this.timer) clearTimeout(this.timer);
    const earliest = Math.min(...this.waiting.map((message) => message.visibleAt));
    // Armed as no request's: a message sent by a request would otherwise be delivered, and
    // retried, with that request's deadline, long after it was answered; in AWS each delivery
    // is an invocation of its own.
    this.timer = outsideRequest(() => setTimeout(() => {
      this.timer = undefined;
      this.serially(() => this.deliver((message) => message.visibleAt <= Date.now()))
        .catch((error: unknown) => log.error('integration deliveries failed', { queue: this.name, error: String(error) }))
        .finally(() => this.schedule());
    }, Math.max(0, earliest - Date.now())));
    this.timer.unref();
  }
}
