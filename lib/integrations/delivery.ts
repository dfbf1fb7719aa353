import type { ChangeEvent } from '../events/model.js';
import { unleashEvents, type UnleashEvent } from '../events/wire.js';
import { log } from '../log.js';
import { RefusedDestination } from './http-poster.js';
import { messageFor, type MessageContext, type OutgoingRequest } from './messages.js';
import { isSubscribed, type DeliveryMessage, type DeliveryRecord, type DeliveryState, type Integration } from './model.js';
import { openParameters } from './parameters.js';
import type { DeliveryLog, DeliveryQueue, EventBus, HttpAnswer, HttpPoster, IntegrationStore, Sealer } from './store.js';

/** The source of every event the EventBridge integration puts on the bus. */
export const EVENT_BUS_SOURCE = 'serverless-toggles';

export interface DeliveryPorts {
  integrations: Pick<IntegrationStore, 'list' | 'get'>;
  log: DeliveryLog;
  queue: DeliveryQueue;
  http: HttpPoster;
  /** Absent where no bus is configured: an EventBridge integration's deliveries then fail and are retried. */
  bus: EventBus | undefined;
  sealer: Sealer;
}

/** What became of one attempt: whether the queue should offer the message again later. */
export interface DeliveryOutcome {
  state: DeliveryState | 'dropped';
  retry: boolean;
}

/**
 * Integrations' two stages. `fanOut` runs on each batch of recorded change events (the table's
 * stream in the cloud, the local runtime's copy of it) and queues one message per integration and
 * event that integration subscribes to; `deliver` runs on each queued message, sends it, and
 * writes the attempt to the integration's delivery log. A failed attempt answers `retry`, and
 * the queue offers it again with backoff until its dead-letter queue takes it.
 */
export class IntegrationDelivery {
  private readonly ids: { last: number } = { last: 0 };

  constructor(
    private readonly ports: DeliveryPorts,
    private readonly context: MessageContext,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Answers how many deliveries were queued. */
  async fanOut(events: readonly ChangeEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const enabled = (await this.ports.integrations.list()).filter((integration) => integration.enabled);
    if (enabled.length === 0) return 0;
    const messages: DeliveryMessage[] = [];
    for (const event of events) {
      for (const unleashEvent of unleashEvents(event)) {
        for (const integration of enabled) {
          // Subscriptions read no parameter, so the sealed ones stay sealed here.
          if (isSubscribed({ ...integration, parameters: {} }, unleashEvent)) messages.push({ integrationId: integration.id, event: unleashEvent });
        }
      }
    }
    if (messages.length > 0) await this.ports.queue.send(messages);
    return messages.length;
  }

  /**
   * One attempt. The integration is read again, so one disabled, changed or deleted after the
   * event was queued is delivered as it is now, or not at all.
   */
  async deliver(message: DeliveryMessage, attempt: number): Promise<DeliveryOutcome> {
    const stored = await this.ports.integrations.get(message.integrationId);
    if (!stored || !stored.enabled) return { state: 'dropped', retry: false };
    const integration: Integration = { ...stored, parameters: await openParameters(stored, this.ports.sealer) };
    const outcome = await this.attempt(integration, message.event);
    await this.ports.log.record({
      id: this.nextId(),
      integrationId: integration.id,
      createdAt: this.now().toISOString(),
      state: outcome.state,
      stateDetails: outcome.stateDetails,
      event: message.event,
      details: { ...outcome.details, attempt },
    });
    if (outcome.state === 'failed') log.warn('integration delivery failed', { integrationId: integration.id, provider: integration.provider, attempt, retry: outcome.retry, details: outcome.stateDetails });
    return { state: outcome.state, retry: outcome.retry };
  }

  private async attempt(integration: Integration, event: UnleashEvent): Promise<{ state: DeliveryState; stateDetails: string; details: Record<string, unknown>; retry: boolean }> {
    const message = messageFor(integration, event, this.context);
    if (message.kind === 'unsendable') return { state: 'failed', stateDetails: message.reason, details: {}, retry: false };
    if (message.kind === 'bus') {
      if (!this.ports.bus) return { state: 'failed', stateDetails: 'No event bus is configured for this service (EVENT_BUS_NAME).', details: message.details, retry: true };
      try {
        await this.ports.bus.put({ source: EVENT_BUS_SOURCE, detailType: message.detailType, detail: JSON.stringify(message.detail) });
        return { state: 'success', stateDetails: 'EventBridge accepted the event.', details: message.details, retry: false };
      } catch (error) {
        return { state: 'failed', stateDetails: `EventBridge did not accept the event: ${(error as Error).message}`, details: message.details, retry: true };
      }
    }
    const answers = await Promise.all(message.requests.map((request) => this.post(request, integration)));
    const failed = answers.filter((answer) => !answer.ok);
    const codes = [...new Set(answers.map((answer) => answer.code))].join(', ');
    const many = answers.length > 1;
    const { details } = message;
    if (failed.length === 0) {
      const done = many ? `All (${answers.length}) ${message.label} requests were successful with status codes: ${codes}.` : `${message.label} request was successful with status code: ${codes}.`;
      return { state: message.warnings.length > 0 ? 'successWithErrors' : 'success', stateDetails: [...message.warnings, done].join('\n'), details, retry: false };
    }
    if (failed.length < answers.length) {
      // Trying again would repeat the messages that were delivered.
      return { state: 'successWithErrors', stateDetails: `Some (${failed.length} of ${answers.length}) ${message.label} requests failed. Status codes: ${codes}.`, details, retry: false };
    }
    const reason = many ? `All (${answers.length}) ${message.label} requests failed with status codes: ${codes}.` : `${message.label} request failed with status code: ${codes}.`;
    return { state: 'failed', stateDetails: [...message.warnings, reason].join('\n'), details, retry: failed.some((answer) => answer.retry) };
  }

  private async post(request: OutgoingRequest, integration: Integration): Promise<{ ok: boolean; code: string; retry: boolean }> {
    let answer: HttpAnswer;
    try {
      answer = await this.ports.http.post(request);
    } catch (error) {
      const refused = error instanceof RefusedDestination;
      return { ok: false, code: `none (${(error as Error).message})`, retry: !refused };
    }
    let ok = answer.status >= 200 && answer.status < 300;
    let code = String(answer.status);
    // Slack's Web API answers 200 with {"ok": false, "error": …} when it refuses a message.
    if (ok && integration.provider === 'slack-app') {
      const error = slackError(answer.body);
      if (error !== undefined) {
        ok = false;
        code = `${answer.status} (${error})`;
      }
    }
    // A 4xx other than throttling, a redirect (not followed) or Slack's refusal says the request
    // itself is wrong: sending it again would not help.
    const retry = answer.status >= 500 || answer.status === 429 || answer.status === 408;
    return { ok, code, retry };
  }

  /** Digits that grow with time: milliseconds and a counter, unique within the process. */
  private nextId(): string {
    const candidate = this.now().getTime() * 1000 + Math.floor(Math.random() * 1000);
    this.ids.last = Math.max(candidate, this.ids.last + 1);
    return String(this.ids.last);
  }
}

function slackError(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { ok?: unknown; error?: unknown };
    return parsed.ok === true ? undefined : String(parsed.error ?? 'not ok');
  } catch {
    return 'not JSON';
  }
}
