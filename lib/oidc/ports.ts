import type { GroupService } from '../groups/service.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { SessionService } from '../sessions/service.js';
import type { UserStore } from '../users/store.js';
import type { SsoUsers } from './accounts.js';
import type { OidcSettingsService } from './service.js';

/** What single sign-on reads and writes of other resources, and the edge's own OIDC settings. */
export interface OidcPorts {
  /** The process's OIDC settings, whose change resets the login page this process answers. */
  settings: OidcSettingsService;
  /** Seals the OIDC client secret and the login under way. */
  secretBox: Pick<SecretBox, 'seal' | 'open'>;
  /** The person a provider's subject or e-mail stands for, linked or created. */
  users: SsoUsers;
  /** When the person last logged in. */
  logins: Pick<UserStore, 'recordLogin'>;
  /** The groups the provider's claims name the person a member of. */
  memberships: Pick<GroupService, 'syncSsoMemberships'>;
  /** The session a finished login starts. */
  sessions: Pick<SessionService, 'start'>;
}
