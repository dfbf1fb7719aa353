import { defineSamples } from '../samples.js';
import { authRoutes } from './routes.js';

/** A made-up password that follows the password rules (sample events hold no real secret). */
const SAMPLE_PASSWORD = 'Correct-Horse-7-Battery';
const UNKNOWN_TOKEN = '0123456789abcdef0123456789abcdef';

export const authSamples = defineSamples(authRoutes, {
  login: {
    operation: 'login',
    body: { username: '{{LOGIN_USERNAME}}', password: SAMPLE_PASSWORD },
    status: 200,
    given: ['access/create-user-with-password'],
  },
  'login-wrong-password': { operation: 'login', body: { username: 'nobody-{{UNIQUE}}', password: 'Wrong-Password-1' }, status: 401 },
  'login-without-password': { operation: 'login', body: { username: 'nobody' }, status: 400 },
  logout: { operation: 'logout', status: 302 },
  'logout-by-link': { operation: 'logoutByLink', status: 302 },
  'get-me': { operation: 'getMe', status: 200 },
  'get-me-without-login': { operation: 'getMe', token: 'none', status: 401 },
  'get-my-roles': { operation: 'getMyRoles', query: { projectId: 'default' }, status: 200 },
  'get-my-roles-without-project': { operation: 'getMyRoles', status: 400 },
  'change-password-with-token': {
    operation: 'changeMyPassword',
    body: { oldPassword: SAMPLE_PASSWORD, password: 'Another-Good-Pass-42', confirmPassword: 'Another-Good-Pass-42' },
    status: 400,
  },
  'create-reset-link': {
    operation: 'createResetLink', body: { id: '{{LOGIN_EMAIL}}' }, status: 200, given: ['access/create-user-with-password'],
  },
  'create-reset-link-unknown-user': { operation: 'createResetLink', body: { id: 'nobody-{{UNIQUE}}@example.com' }, status: 404 },
  'validate-unknown-reset-token': { operation: 'validateResetToken', query: { token: UNKNOWN_TOKEN }, status: 401 },
  'reset-password-unknown-token': {
    operation: 'resetPassword', body: { token: UNKNOWN_TOKEN, password: 'Fresh-Password-77' }, status: 401,
  },
  'validate-weak-password': { operation: 'validatePassword', body: { password: 'short' }, status: 400 },
  'validate-unknown-invite': { operation: 'validateInvite', params: { token: UNKNOWN_TOKEN }, status: 400 },
  'get-password-login-settings': { operation: 'getPasswordLoginSettings', status: 200 },
  // Turning password login on always works; off needs single sign-on on (test/integration/oidc-login.test.ts).
  'set-password-login-settings': { operation: 'setPasswordLoginSettings', body: { disabled: false }, status: 200 },
  'set-password-login-settings-not-boolean': { operation: 'setPasswordLoginSettings', body: { disabled: 'yes' }, status: 400 },
  'sign-up-with-unknown-invite': {
    operation: 'signUpWithInvite',
    params: { token: UNKNOWN_TOKEN },
    body: { name: 'Grace', email: 'grace-{{UNIQUE}}@example.com', password: SAMPLE_PASSWORD },
    status: 400,
  },
});
