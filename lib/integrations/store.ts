import type { ChangeEvent } from '../events/model.js';
import type { DeliveryMessage, DeliveryRecord, Integration } from './model.js';
import type { OutgoingRequest } from './messages.js';

/** An integration as stored: its sensitive parameters sealed, the others as they are. */
export interface StoredIntegration extends Omit<Integration, 'parameters'> {
  parameters: Record<string, string>;
  sealedParameters: Record<string, string>;
}

/** The integrations' store port; `dynamo-store.ts` implements it. */
export interface IntegrationStore {
  list(): Promise<StoredIntegration[]>;
  get(id: number): Promise<StoredIntegration | undefined>;
  nextId(): Promise<number>;
  /** Writes the integration and the change event telling of it in one transaction. */
  insert(integration: StoredIntegration, event: ChangeEvent): Promise<void>;
  /** Answers false when the integration does not exist. */
  replace(integration: StoredIntegration, event: ChangeEvent): Promise<boolean>;
  /** Answers false when the integration does not exist. */
  delete(id: number, event: ChangeEvent): Promise<boolean>;
}

/** The last deliveries of each integration. */
export interface DeliveryLog {
  record(delivery: DeliveryRecord): Promise<void>;
  /** Newest first. */
  latest(integrationId: number, limit: number, offset: number): Promise<DeliveryRecord[]>;
}

/** Where deliveries wait: SQS in the cloud, the local runtime's queue on a laptop. */
export interface DeliveryQueue {
  send(messages: DeliveryMessage[]): Promise<void>;
}

/** The account's event bus (Amazon EventBridge), or the local runtime's record of it. */
export interface EventBus {
  put(entry: { source: string; detailType: string; detail: string }): Promise<void>;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

/** Sends one request; throws when it could not be sent (refused address, no answer). */
export interface HttpPoster {
  post(request: OutgoingRequest): Promise<HttpAnswer>;
}

/** Seals and opens the sensitive parameters (lib/secrets/secret-box.ts). */
export interface Sealer {
  seal(plain: string, purpose: string): Promise<string>;
  open(sealed: string, purpose: string): Promise<string>;
}
