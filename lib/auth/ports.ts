import type { SessionService } from '../sessions/service.js';
import type { SignupTokenService } from '../signup-tokens/service.js';
import type { UserService } from '../users/service.js';
import type { UserSettingsService } from '../user-settings/service.js';
import type { LoginMethods } from './login-methods.js';
import type { Credentials } from './service.js';

/** What people's login and passwords read and write of other resources, and the edge's own login methods. */
export interface AuthPorts {
  /** The people who log in: found by login name or id, their password set under the password rules. */
  users: Pick<UserService, 'findByLogin' | 'find' | 'get' | 'setPassword'>;
  /** The process's user store: stored password hashes and login records. */
  credentials: Credentials;
  /** The sessions a login starts and a logout ends, and the origins a browser's login must come from. */
  sessions: Pick<SessionService, 'start' | 'end' | 'ownOrigins'>;
  /** Invite links: whether one is open, and signing up through it. */
  invites: Pick<SignupTokenService, 'isOpen' | 'signUp'>;
  /** The process's login methods, which the session edge's 401s name too. */
  loginMethods: LoginMethods;
  /** The splash screens and feedback the admin UI remembers for a person, which GET /api/admin/user answers. */
  uiSettings: Pick<UserSettingsService, 'of'>;
  /** Where the browser goes after a logout to sign out at the provider too, if anywhere. */
  providerSignOutUrl(idToken: string | undefined): Promise<string | undefined>;
}
