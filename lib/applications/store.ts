import type { ClientApplication } from '../client/store.js';

/**
 * The SDK registrations the client function records (lib/client/dynamo-application-store.ts),
 * read and removed for the admin UI. Reads leave out the registrations that lapsed by `now`,
 * whether or not DynamoDB's TTL has removed them yet.
 */
export interface ApplicationRegistrations {
  /** Every live registration, one per application and token scope. */
  list(now: Date): Promise<ClientApplication[]>;
  /** One application's live registrations, one per token scope it registered with. */
  ofApplication(appName: string, now: Date): Promise<ClientApplication[]>;
  /** Removes the application's registrations in every token scope, freeing their places. */
  remove(appName: string, now: Date): Promise<void>;
}
