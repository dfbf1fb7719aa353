import { authSlice } from '../../auth/slice.js';
import type { Composition } from '../composition.js';
import { loginMethods, sessions, userStore } from '../session-edge.js';
import { oidc } from './oidc.js';
import { signupTokens } from './signup-tokens.js';
import { userSettings } from './user-settings.js';
import { users } from './users.js';

/**
 * The login and passwords' slice, once per composition, on the session edge's sessions, login
 * methods and user store; an invite signup goes through the signup tokens' service, and a logout
 * after a single sign-on asks the OIDC slice where the provider signs out. GET /api/admin/user
 * answers what the user settings' slice remembers for the person.
 */
export const auth = (c: Composition) => authSlice(c, {
  users: c.once(users).users,
  credentials: c.once(userStore),
  sessions: c.once(sessions),
  invites: c.once(signupTokens).signupTokens,
  loginMethods: c.once(loginMethods),
  providerSignOutUrl: (idToken) => c.once(oidc).oidcLogin.signOutUrl(idToken),
  uiSettings: c.once(userSettings).userSettings,
});
