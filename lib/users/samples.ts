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
  'list-roles': { operation: 'listRoles', status: 200 },
  'delete-user': { operation: 'deleteUser', params: { id: '{{USER_ID}}' }, status: 200, given: ['access/create-user'] },
});
