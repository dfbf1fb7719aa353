import type { ClientApplication } from '../client/store.js';

/** The SDK registrations the client function records (lib/client/dynamo-application-store.ts), read for the admin UI. */
export interface ApplicationReader {
  /** Every registration, one per application and token scope. */
  list(): Promise<ClientApplication[]>;
  /** One application's registrations, one per token scope it registered with. */
  ofApplication(appName: string): Promise<ClientApplication[]>;
}
