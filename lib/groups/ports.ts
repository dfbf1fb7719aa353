import type { GroupStore } from './store.js';
import type { UserLookup } from './service.js';

/** What groups read of other resources, and the one group store the session edge reads too. */
export interface GroupPorts {
  /** The process's group store, shared with the sessions that read the root roles groups give. */
  store: GroupStore;
  /** The members' users that still exist. */
  users: UserLookup;
}
