import { DynamoPasswordLoginStore } from '../auth/dynamo-store.js';
import { LoginMethods } from '../auth/login-methods.js';
import { publicUrlOf } from '../config.js';
import { clientAddress } from '../http/client-address.js';
import { originSecretSource } from '../secrets/origin-secret.js';
import { DynamoGroupReader } from '../groups/dynamo-reader.js';
import { DynamoGroupStore } from '../groups/dynamo-store.js';
import { DynamoOidcSettingsStore } from '../oidc/dynamo-store.js';
import { OidcSettingsService } from '../oidc/service.js';
import { MaintenanceService } from '../maintenance/service.js';
import { DynamoMaintenanceStore } from '../maintenance/dynamo-store.js';
import { PersonalTokenAuthenticator } from '../personal-access-tokens/authenticator.js';
import { DynamoPersonalTokenStore } from '../personal-access-tokens/dynamo-store.js';
import { keyMaterialSource } from '../secrets/key-source.js';
import { SecretBox } from '../secrets/secret-box.js';
import { DynamoSessionStore, sessionOfItem } from '../sessions/dynamo-store.js';
import { sessionSettingsOf } from '../sessions/model.js';
import { GroupRolesByRevision } from '../sessions/group-roles.js';
import { SessionService } from '../sessions/service.js';
import { groupsRevisionOf } from '../store/groups-revision.js';
import { DynamoUserReader } from '../users/dynamo-reader.js';
import { DynamoUserStore } from '../users/dynamo-store.js';
import { keys, type ItemKey } from '../store/table-design.js';
import type { Composition } from './composition.js';

/*
 * The admin functions' session edge: a person's cookie → the user it stands for, with the root
 * roles of their groups, and the ways to log in a 401 names. One of each per process (through
 * `composition.once`), shared with the access function's slices: saving OIDC settings there
 * changes the login page this process answers at once.
 */

export const userStore = (c: Composition) => new DynamoUserStore(c.store.db, c.store.tableName);
/** What a session reads of its user: the admin functions bundle this, not the user store's writes. */
export const userReader = (c: Composition) => new DynamoUserReader(c.store.db, c.store.tableName);
export const groupStore = (c: Composition) => new DynamoGroupStore(c.store.db, c.store.tableName);
/** What a session reads of groups: the root roles they give; the admin functions bundle this, not the group store's writes. */
export const groupReader = (c: Composition) => new DynamoGroupReader(c.store.db, c.store.tableName);
export const sessionStore = (c: Composition) => new DynamoSessionStore(c.store.db, c.store.tableName);
export const passwordLoginStore = (c: Composition) => new DynamoPasswordLoginStore(c.store.db, c.store.tableName);

/** One box for the OIDC client secret and the login under way: one key material, a key per purpose. */
export const secretBox = (c: Composition) => new SecretBox(keyMaterialSource(c.config));

export const oidcSettingsStore = (c: Composition) => new DynamoOidcSettingsStore(c.store.db, c.store.tableName);

export function oidcSettings(c: Composition): OidcSettingsService {
  const settings = new OidcSettingsService(c.once(oidcSettingsStore), c.once(secretBox));
  // Saved OIDC settings change what the login page offers: this container answers them at once.
  settings.onChange(() => c.once(loginMethods).forget());
  return settings;
}

/**
 * Which ways to log in are open: the password, single sign-on. Whether single sign-on is on is
 * read from the settings' store, so the admin functions' edge holds no OIDC settings service
 * nor the box that seals its secret; saving the settings resets it (`oidcSettings`).
 */
export function loginMethods(c: Composition): LoginMethods {
  const publicUrl = publicUrlOf(c.config);
  return new LoginMethods(
    c.once(passwordLoginStore), { isEnabled: async () => (await c.once(oidcSettingsStore).get())?.enabled ?? false },
    { oidcLoginUrl: `${publicUrl.replace(/\/+$/, '')}/auth/oidc/login`, baseUriPath: c.config.baseUriPath }, c.now,
  );
}

/**
 * A session, or a personal access token, reads its user and the groups' revision on each request,
 * and the groups again only when their revision moved (one reader per process keeps them), so a
 * changed role holds at once.
 */
export function sessions(c: Composition): SessionService {
  const groupRoles = new GroupRolesByRevision(c.once(groupReader), c.now);
  const withRevision = async (userId: number, other: ItemKey[]) => {
    const { user, others } = await c.once(userReader).getWith(userId, [keys.groupsRevision(), ...other]);
    return { user, groupsRevision: groupsRevisionOf(others[0]), other: others[1] };
  };
  return new SessionService(c.once(sessionStore), {
    sessionAndUser: async (userId, secretHash) => {
      const { user, groupsRevision, other } = await withRevision(userId, [keys.session(userId, secretHash)]);
      return { user, groupsRevision, session: other ? sessionOfItem(userId, secretHash, other) : undefined };
    },
    userAndGroupsRevision: (id) => withRevision(id, []),
    groupRootRolesOf: (id, groupsRevision) => groupRoles.rolesOf(id, groupsRevision),
  }, sessionSettingsOf(c.config), c.once(loginMethods), c.now, new PersonalTokenAuthenticator(new DynamoPersonalTokenStore(c.store.db, c.store.tableName), c.now));
}

/** Maintenance mode, one per process: the edge refuses changes by it, and the toggle on this container resets it at once. */
export const maintenance = (c: Composition) => new MaintenanceService(new DynamoMaintenanceStore(c.store.db, c.store.tableName), c.now);

/**
 * The admin functions' edge: sessions and personal access tokens, behind CloudFront the viewer the
 * distribution vouches for with its secret, and maintenance mode.
 */
export const adminEdge = (c: Composition) => ({
  sessions: c.once(sessions), clientAddress: clientAddress(originSecretSource(c.config)), maintenance: c.once(maintenance),
});
