import { admin, defineRoutes, PUBLIC } from '../http/route.js';
import {
  inviteSignupSchema,
  loginSchema,
  meSchema,
  myRolesQuerySchema,
  passwordChangeSchema,
  passwordLoginSettingsSchema,
  resetLinkRequestSchema,
  resetLinkSchema,
  resetPasswordSchema,
  resetTokenQuerySchema,
  resetTokenUserSchema,
  sessionUserSchema,
} from './schemas.js';
import { passwordSchema, roleListSchema } from '../users/schemas.js';

/**
 * People's login (Unleash's simple auth), their own user and password, reset links and the
 * public invite; part of the `access` group. The login, logout, reset and invite paths are
 * Unleash's own, outside /api, as its UI calls them.
 */
export const authRoutes = defineRoutes('access', {
  login: {
    method: 'POST', path: '/auth/simple/login', access: PUBLIC, status: 200,
    summary: 'Log in with a username or e-mail and a password; answers the user and sets the session cookie',
    body: loginSchema, response: sessionUserSchema,
  },
  logout: {
    method: 'POST', path: '/logout', access: PUBLIC, status: 302,
    summary: "End the caller's session (not their other devices'), clear the cookie and redirect to the signed-out page; 403 from another site",
  },
  logoutByLink: {
    method: 'GET', path: '/logout', access: PUBLIC, status: 302,
    summary: 'Log out through a link, as older Unleash UIs do (as POST /logout); from another site it ends nothing and redirects to the UI',
  },
  getMe: {
    method: 'GET', path: '/api/admin/user', access: admin('READ_UI_CONFIG'), status: 200,
    summary: 'Who is calling and what they may do; 401 names the login form to show',
    response: meSchema,
  },
  getMyRoles: {
    method: 'GET', path: '/api/admin/user/roles', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "The logged-in user's roles in a project: their root role, as this service has no project roles",
    query: myRolesQuerySchema, response: roleListSchema,
  },
  changeMyPassword: {
    method: 'POST', path: '/api/admin/user/change-password', access: admin('READ_UI_CONFIG'), status: 200,
    summary: "Change the logged-in user's own password (old one, new one twice); ends their sessions",
    body: passwordChangeSchema,
  },
  createResetLink: {
    method: 'POST', path: '/api/admin/user-admin/reset-password', access: admin('ADMIN'), status: 200,
    summary: "A single-use link that sets a user's password, valid for 24 hours (no e-mail is sent)",
    body: resetLinkRequestSchema, response: resetLinkSchema,
  },
  validateResetToken: {
    method: 'GET', path: '/auth/reset/validate', access: PUBLIC, status: 200,
    summary: 'The user a reset link is for (401 unknown or expired, 403 used)', query: resetTokenQuerySchema,
    response: resetTokenUserSchema,
  },
  resetPassword: {
    method: 'POST', path: '/auth/reset/password', access: PUBLIC, status: 200,
    summary: "Set a password through a reset link, which is then used up; ends the user's sessions",
    body: resetPasswordSchema,
  },
  validatePassword: {
    method: 'POST', path: '/auth/reset/validate-password', access: PUBLIC, status: 200,
    summary: 'Check a password against the password rules (400 names the rule it breaks)', body: passwordSchema,
  },
  validateInvite: {
    method: 'GET', path: '/invite/{token}/validate', access: PUBLIC, status: 200,
    summary: 'Whether an invite link (public signup token) is open: 200, or 400',
  },
  getPasswordLoginSettings: {
    method: 'GET', path: '/api/admin/auth/simple/settings', access: admin('ADMIN'), status: 200,
    summary: 'Whether password login is turned off (it counts only while single sign-on is on)', response: passwordLoginSettingsSchema,
  },
  setPasswordLoginSettings: {
    method: 'POST', path: '/api/admin/auth/simple/settings', access: admin('ADMIN'), status: 200,
    summary: 'Turn password login off or on; off is refused while single sign-on is off, so nobody is locked out',
    body: passwordLoginSettingsSchema, response: passwordLoginSettingsSchema,
  },
  signUpWithInvite: {
    method: 'POST', path: '/invite/{token}/signup', access: PUBLIC, status: 201,
    summary: "Sign up through an invite link with a password, with the link's root role; logs the new user in",
    body: inviteSignupSchema, response: sessionUserSchema,
  },
});
