import type { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { EventBus } from './store.js';

/** The Amazon EventBridge integration's bus: PutEvents on the stack's own bus. */
export class EventBridgeBus implements EventBus {
  private client: Promise<{ bridge: EventBridgeClient; PutEventsCommand: typeof import('@aws-sdk/client-eventbridge').PutEventsCommand }> | undefined;

  constructor(
    private readonly busName: string,
    private readonly region: string,
  ) {}

  async put(entry: { source: string; detailType: string; detail: string }): Promise<void> {
    const { bridge, PutEventsCommand } = await this.connect();
    const answer = await bridge.send(new PutEventsCommand({
      Entries: [{ EventBusName: this.busName, Source: entry.source, DetailType: entry.detailType, Detail: entry.detail }],
    }));
    const failed = answer.Entries?.find((result) => result.ErrorCode);
    if ((answer.FailedEntryCount ?? 0) > 0 || failed) throw new Error(`${failed?.ErrorCode ?? 'Failed'}: ${failed?.ErrorMessage ?? 'the event was not put'}`);
  }

  private connect() {
    this.client ??= import('@aws-sdk/client-eventbridge').then(({ EventBridgeClient: Client, PutEventsCommand }) => ({ bridge: new Client({ region: this.region }), PutEventsCommand }));
    return this.client;
  }
}
