import { randomUUID } from 'node:crypto';

/**
 * A change event: what changed, when, by whom. Written in the same transaction as the change
 * itself, so the record can neither miss a change nor tell of one that did not happen. Project
 * statistics, insights and the event log (lib/events/service.ts) read them.
 */
export interface ChangeEvent {
  id: string;
  type: string;
  createdAt: string;
  /** The API token's name, or `system` for changes the service makes itself. */
  createdBy: string;
  project?: string | undefined;
  featureName?: string | undefined;
  /** Details, e.g. for a feature change the list of what changed (`enabled:production`, …). */
  changes?: string[] | undefined;
}

/** An event made now by `createdBy`, the actor the service was given by its caller. */
export function changeEvent(type: string, details: Omit<ChangeEvent, 'id' | 'type' | 'createdAt' | 'createdBy'>, createdBy: string): ChangeEvent {
  return { id: randomUUID(), type, createdAt: new Date().toISOString(), createdBy, ...details };
}
