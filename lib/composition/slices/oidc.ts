import { oidcSlice } from '../../oidc/slice.js';
import type { Composition } from '../composition.js';
import { oidcSettings, secretBox, sessions, userStore } from '../session-edge.js';
import { groups } from './groups.js';
import { users } from './users.js';

/**
 * The single sign-on slice, once per composition, on the session edge's OIDC settings, secret box
 * and sessions: saving the settings resets this process's login page. A person is found or
 * created through the users' service, and their groups follow the provider's claims through the
 * groups' service (their rules and change events).
 */
export const oidc = (c: Composition) => oidcSlice(c, {
  settings: c.once(oidcSettings),
  secretBox: c.once(secretBox),
  users: c.once(users).users,
  logins: c.once(userStore),
  memberships: c.once(groups).groups,
  sessions: c.once(sessions),
});
