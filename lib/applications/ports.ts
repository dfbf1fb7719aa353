import type { ApplicationRegistrations } from './store.js';

/** What the applications view reads of other resources: the registrations the SDK API records. */
export interface ApplicationPorts {
  registrations: ApplicationRegistrations;
}
