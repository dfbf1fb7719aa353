import type { AppConfig } from '../config.js';
import { PermissionDenied, ValidationFailed } from '../errors.js';
import type { OperationsFor } from '../http/operation.js';
import { rootRoleById } from '../roles/model.js';
import { isUserCaller } from '../http/caller.js';
import { userReadFor } from '../sessions/service.js';
import { isCrossSite, isOwnNavigation } from '../http/csrf.js';
import { toRoleWire } from '../users/wire.js';
import { checkPasswordRules } from '../users/password.js';
import type { AuthPorts } from './ports.js';
import type { authRoutes } from './routes.js';
import type { AuthService } from './service.js';
import { toApiUserMeWire, toMeWire, toSessionUserWire } from './wire.js';

export interface AuthOperationsOf {
  auth: AuthService;
  ports: Pick<AuthPorts, 'users' | 'sessions' | 'loginMethods' | 'providerSignOutUrl' | 'uiSettings'>;
  config: Pick<AppConfig, 'baseUriPath' | 'unleashUrl'>;
}

export const authOperations = ({ auth, ports, config }: AuthOperationsOf): OperationsFor<typeof authRoutes> => {
  const { users, sessions, loginMethods } = ports;
  /** A login or signup posted from another site's page is refused: it would log the browser in as someone else. */
  const refuseCrossSite = (headers: Record<string, string | undefined>) => {
    if (isCrossSite(headers, sessions.ownOrigins)) throw new PermissionDenied('LOGIN', 'Log in from the pages of this service.');
  };
  /**
   * Logout ends the caller's own session (lib/sessions/service.ts `end`), and the browser forgets
   * the cookie and its storage. After a single sign-on login with single sign-out on, the browser
   * goes on to the provider's sign-out page, which sends it back to the signed-out page.
   */
  const endSession = async (cookies: readonly string[]) => {
    const { cookie, idToken } = await sessions.end(cookies);
    const signedOut = `${config.baseUriPath}/signed-out`;
    const providerSignOut = await ports.providerSignOutUrl(idToken);
    return {
      headers: { 'set-cookie': cookie, 'clear-site-data': '"cookies", "storage"', location: providerSignOut ?? signedOut },
    };
  };
  /**
   * Another site may link to GET /logout, and SameSite=Lax sends the cookie on such a top-level
   * navigation: unless the navigation is known to come from our own pages or the person
   * (`isOwnNavigation`: Sec-Fetch-Site, else a Referer of ours), it ends nothing and lands on the
   * UI, which a person who clicked the link still sees logged in (a 403 page would only puzzle
   * them). The UI's own logout is a same-origin form POST, and older UIs' link a same-origin
   * navigation.
   */
  const logoutByLink = async ({ cookies, headers }: { cookies: readonly string[]; headers: Record<string, string | undefined> }) => {
    if (!isOwnNavigation(headers, sessions.ownOrigins)) return { headers: { location: `${config.baseUriPath}/`, 'cache-control': 'no-store' } };
    return endSession(cookies);
  };
  return {
    login: async ({ body, headers, sourceIp }) => {
      refuseCrossSite(headers);
      const { user, cookie } = await auth.login(body.username, body.password, sourceIp);
      return { body: toSessionUserWire(user, config.unleashUrl), headers: { 'set-cookie': cookie, 'cache-control': 'no-store' } };
    },
    /** A POST from another site is refused, as every other change a cookie carries. */
    logout: async ({ cookies, headers }) => {
      if (isCrossSite(headers, sessions.ownOrigins)) throw new PermissionDenied('LOGOUT', 'Log out from the pages of this service.');
      return endSession(cookies);
    },
    logoutByLink,
    getMe: async ({ caller }) => {
      const headers = { 'cache-control': 'no-store' };
      if (!isUserCaller(caller)) return { body: toApiUserMeWire(caller), headers };
      // The user this request's session or personal access token was resolved with, read strongly consistent moments ago.
      const [user, uiSettings] = await Promise.all([userReadFor(caller) ?? users.get(caller.userId), ports.uiSettings.of(caller.userId)]);
      return { body: toMeWire(user, caller, config.unleashUrl, uiSettings), headers };
    },
    getMyRoles: async ({ caller }) => {
      if (!isUserCaller(caller)) return { body: { version: 1, roles: [] } };
      const role = rootRoleById((userReadFor(caller) ?? await users.get(caller.userId)).rootRole);
      // Unleash keeps a root role's assignment under the default project, and answers it so.
      return { body: { version: 1, roles: role ? [{ ...toRoleWire(role), project: 'default' }] : [] } };
    },
    changeMyPassword: async ({ body, caller }) => {
      if (!isUserCaller(caller)) throw new ValidationFailed('oldPassword: an API token has no password; log in as a user to change yours');
      await auth.changePassword(caller.userId, body);
      return {};
    },
    createResetLink: async ({ body, caller }) => ({
      body: { resetPasswordUrl: await auth.createResetLink(body.id, caller.tokenName) },
    }),
    validateResetToken: async ({ query }) => {
      const { token, user } = await auth.resetTokenUser(query.token);
      const role = rootRoleById(user.rootRole);
      if (!role) throw new Error(`User ${user.id} has an unknown root role ${user.rootRole}`);
      return {
        body: { id: user.id, name: user.name, email: user.email, token: query.token, createdBy: token.createdBy, role: toRoleWire(role) },
        headers: { 'cache-control': 'no-store' },
      };
    },
    resetPassword: async ({ body }) => {
      await auth.resetPassword(body.token, body.password);
      return {};
    },
    validatePassword: async ({ body }) => {
      checkPasswordRules(body.password);
      return {};
    },
    validateInvite: async ({ params }) => {
      if (!(await auth.isInviteOpen(params.token))) throw new ValidationFailed('token: this invite link is unknown, disabled or has expired');
      return {};
    },
    getPasswordLoginSettings: async () => ({ body: await loginMethods.passwordSettings() }),
    setPasswordLoginSettings: async ({ body, caller }) => ({ body: await loginMethods.setPasswordDisabled(body.disabled, caller.tokenName) }),
    signUpWithInvite: async ({ params, body, headers }) => {
      refuseCrossSite(headers);
      const { user, cookie } = await auth.signUp(params.token, body);
      return { body: toSessionUserWire(user, config.unleashUrl), headers: { 'set-cookie': cookie, location: `api/admin/user-admin/${user.id}` } };
    },
  };
};
