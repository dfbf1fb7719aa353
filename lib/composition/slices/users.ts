import { compareEnvironments } from '../../environments/model.js';
import type { UserPorts } from '../../users/ports.js';
import { userSlice } from '../../users/slice.js';
import type { Composition } from '../composition.js';
import { groupStore, userStore } from '../session-edge.js';
import { environmentStore } from '../stores.js';

/** The users' slice, once per composition, on the session edge's user store. */
export const users = (c: Composition) => userSlice(c, userPorts(c));

/** What users read of groups and environments, from their adapters. */
function userPorts(c: Composition): UserPorts {
  return {
    store: c.once(userStore),
    groups: async () => (await c.once(groupStore).list()).sort((a, b) => a.id - b.id),
    environmentNames: async () => (await c.once(environmentStore).list()).sort(compareEnvironments).map((environment) => environment.name),
  };
}
