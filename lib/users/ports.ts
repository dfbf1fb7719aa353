import type { Group } from '../groups/model.js';
import type { UserStore } from './store.js';

/** What users read of other resources, and the one user store the session edge reads too. */
export interface UserPorts {
  /** The process's user store, shared with the sessions that read a cookie's user. */
  store: UserStore;
  /** Every group with its members: the groups a deleted user leaves, and the root roles groups give. */
  groups(): Promise<Group[]>;
  /** The environments' names, for the permission catalogue and an access overview's environment. */
  environmentNames(): Promise<string[]>;
}
