import type { UnleashEvent } from '../events/wire.js';
import type { ProviderName } from './providers.js';

/** An integration (Unleash's addon): a provider configured to be told about some events. */
export interface Integration {
  id: number;
  provider: ProviderName;
  description: string;
  enabled: boolean;
  /** Every parameter in plain text, sensitive ones included: only services hold this shape. */
  parameters: Record<string, string>;
  events: string[];
  /** Empty, or `*` first: every project. */
  projects: string[];
  /** Empty, or `*` first: every environment. */
  environments: string[];
  createdAt: string;
}

/** How one delivery went, in Unleash's words (integrationEventSchema `state`). */
export type DeliveryState = 'success' | 'failed' | 'successWithErrors';

/** One attempt to deliver one event to one integration, as its delivery log shows it. */
export interface DeliveryRecord {
  /** Digits that grow with time, as Unleash's ids do; a later attempt has a larger id. */
  id: string;
  integrationId: number;
  createdAt: string;
  state: DeliveryState;
  stateDetails: string;
  event: UnleashEvent;
  details: Record<string, unknown>;
}

/** What the queue carries: one event for one integration, so each is retried on its own. */
export interface DeliveryMessage {
  integrationId: number;
  event: UnleashEvent;
}

const WILDCARD = '*';

/**
 * Change types that stand for several of Unleash's: a stored change says that a feature's
 * strategies, tags or variants changed, not whether one was added or removed, so an integration
 * subscribed to any of Unleash's finer types is told about it.
 */
const SUBSCRIBED_AS: Record<string, readonly string[]> = {
  'feature-strategy-update': ['feature-strategy-update', 'feature-strategy-add', 'feature-strategy-remove'],
  'feature-tagged': ['feature-tagged', 'feature-untagged'],
  'feature-environment-variants-updated': ['feature-environment-variants-updated', 'feature-variants-updated'],
};

/**
 * Whether an integration is told about an event, as Unleash decides it: enabled, subscribed to
 * the event's type, and the event's project and environment (when it has them) among the chosen
 * ones, where no choice or `*` means every one.
 */
export function isSubscribed(integration: Integration, event: UnleashEvent): boolean {
  if (!integration.enabled) return false;
  const types = SUBSCRIBED_AS[event.type] ?? [event.type];
  if (!types.some((type) => integration.events.includes(type))) return false;
  return within(integration.projects, event.project) && within(integration.environments, event.environment);
}

function within(chosen: string[], value: string | null): boolean {
  return value === null || chosen.length === 0 || chosen[0] === WILDCARD || chosen.includes(value);
}
