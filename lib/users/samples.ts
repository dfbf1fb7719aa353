import { defineSamples } from '../samples.js';
import { userRoutes } from './routes.js';

export const userSamples = defineSamples(userRoutes, {
  'create-user': {
    operation: 'createUser',
    body: { email: 'ada-{{UNIQUE}}@example.com', username: 'ada-{{UNIQUE}}', name: 'Ada Lovelace', rootRole: 'Editor' },
    status: 201,
    provides: { USER_ID: 'id' },
  },
  'create-user-with-password': {
    operation: 'createUser',
    // A made-up password that follows the rules; it is stored hashed and never answered.
    body: { email: 'lin-{{UNIQUE}}@example.com', username: 'lin-{{UNIQUE}}', rootRole: 'Viewer', password: 'Correct-Horse-7-Battery' },
    status: 201,
    provides: { LOGIN_USERNAME: 'username', LOGIN_EMAIL: 'email' },
  },
  'create-user-taken-email': {
    operation: 'createUser',
    // The same address in other letter case: emails are unique whatever their case.
    body: { email: 'ADA-{{UNIQUE}}@example.com', rootRole: 'Viewer' },
    status: 409,
    given: ['access/create-user'],
  },
  'create-user-without-email-or-username': {
    operation: 'createUser',
    body: { name: 'Nobody', rootRole: 'Viewer' },
    status: 400,
  },
  'list-users': { operation: 'listUsers', status: 200 },
  'get-user': { operation: 'getUser', params: { id: '{{USER_ID}}' }, status: 200, given: ['access/create-user'] },
  'get-user-not-a-number': { operation: 'getUser', params: { id: 'ada' }, status: 400 },
  'get-unknown-user': { operation: 'getUser', params: { id: '999999' }, status: 404 },
  'update-user': {
    operation: 'updateUser',
    params: { id: '{{USER_ID}}' },
    body: { name: 'Ada King', rootRole: 1 },
    status: 200,
    given: ['access/create-user'],
  },
  // An administrator vouching for the e-mail, so the person's first single sign-on login may link to this user.
  'vouch-for-user-email': {
    operation: 'updateUser',
    params: { id: '{{USER_ID}}' },
    body: { emailVerified: true },
    status: 200,
    given: ['access/create-user'],
  },
  'change-user-password': {
    operation: 'changeUserPassword',
    params: { id: '{{USER_ID}}' },
    // Made-up passwords: one that follows the rules, one that breaks them.
    body: { password: 'Another-Good-Pass-42' },
    status: 200,
    given: ['access/create-user'],
  },
  'change-user-password-too-weak': {
    operation: 'changeUserPassword', params: { id: '{{USER_ID}}' }, body: { password: 'short' }, status: 400, given: ['access/create-user'],
  },
  'change-unknown-user-password': { operation: 'changeUserPassword', params: { id: '999999' }, body: { password: 'Another-Good-Pass-42' }, status: 404 },
  'validate-user-password': { operation: 'validateUserPassword', body: { password: 'Another-Good-Pass-42' }, status: 200 },
  'validate-user-password-too-weak': { operation: 'validateUserPassword', body: { password: 'password' }, status: 400 },
  'list-users-and-groups': { operation: 'listUsersAndGroups', status: 200 },
  'get-admin-count': { operation: 'getAdminCount', status: 200 },
  'list-inactive-users': { operation: 'listInactiveUsers', status: 200 },
  'delete-inactive-users': { operation: 'deleteInactiveUsers', body: { ids: [999999] }, status: 200 },
  'delete-inactive-users-not-ids': { operation: 'deleteInactiveUsers', body: { ids: ['ada'] }, status: 400 },
  'get-user-access-overview': {
    operation: 'getUserAccessOverview',
    params: { id: '{{USER_ID}}' },
    query: { project: 'default', environment: 'development' },
    status: 200,
    given: ['access/create-user'],
  },
  'get-unknown-user-access-overview': { operation: 'getUserAccessOverview', params: { id: '999999' }, status: 404 },
  'list-permissions': { operation: 'listPermissions', status: 200 },
  'list-roles': { operation: 'listRoles', status: 200 },
  'delete-user': { operation: 'deleteUser', params: { id: '{{USER_ID}}' }, status: 200, given: ['access/create-user'] },
});
