import { admin, defineRoutes } from '../http/route.js';
import { passwordSchema } from './schemas.js';
import {
  accessOverviewQuerySchema,
  accessOverviewSchema,
  adminCountSchema,
  inactiveUsersSchema,
  permissionCatalogueSchema,
  roleListSchema,
  userCreateSchema,
  userIdsSchema,
  userListSchema,
  usersAndGroupsSchema,
  userSchema,
  userUpdateSchema,
} from './schemas.js';

/** User administration and the root roles; part of the `access` group. */
export const userRoutes = defineRoutes('access', {
  listUsers: {
    method: 'GET', path: '/api/admin/user-admin', access: admin('ADMIN'),
    status: 200, summary: 'List users, with the root roles they can have', response: userListSchema,
  },
  createUser: {
    method: 'POST', path: '/api/admin/user-admin', access: admin('ADMIN'),
    status: 201, summary: 'Create a user (e-mail and username unique)', body: userCreateSchema, response: userSchema,
  },
  getUser: {
    method: 'GET', path: '/api/admin/user-admin/{id}', access: admin('ADMIN'),
    status: 200, summary: 'E11. Get a user', response: userSchema,
  },
  updateUser: {
    method: 'PUT', path: '/api/admin/user-admin/{id}', access: admin('ADMIN'),
    status: 200, summary: 'Update a user; fields left out keep their value', body: userUpdateSchema, response: userSchema,
  },
  deleteUser: {
    method: 'DELETE', path: '/api/admin/user-admin/{id}', access: admin('ADMIN'),
    status: 200, summary: 'Delete a user and end its group memberships',
  },
  changeUserPassword: {
    method: 'POST', path: '/api/admin/user-admin/{id}/change-password', access: admin('ADMIN'),
    status: 200, summary: "Set another user's password (the password rules apply); ends that user's sessions", body: passwordSchema,
  },
  validateUserPassword: {
    method: 'POST', path: '/api/admin/user-admin/validate-password', access: admin('READ_UI_CONFIG'),
    status: 200, summary: 'Check a password against the password rules (400 names the rule it breaks)', body: passwordSchema,
  },
  listUsersAndGroups: {
    // Unleash lets any logged-in user read it, for its project access dialogs; this service has
    // no project access to assign, and the list holds every person's e-mail address.
    method: 'GET', path: '/api/admin/user-admin/access', access: admin('ADMIN'),
    status: 200, summary: 'The users and groups to pick from in access dialogs: names, e-mails and member counts only',
    response: usersAndGroupsSchema,
  },
  getAdminCount: {
    method: 'GET', path: '/api/admin/user-admin/admin-count', access: admin('ADMIN'),
    status: 200, summary: 'How many users have the Admin root role, with and without a password', response: adminCountSchema,
  },
  listInactiveUsers: {
    method: 'GET', path: '/api/admin/user-admin/inactive', access: admin('ADMIN'),
    status: 200, summary: 'Users neither seen nor created in the last 180 days', response: inactiveUsersSchema,
  },
  deleteInactiveUsers: {
    method: 'POST', path: '/api/admin/user-admin/inactive/delete', access: admin('ADMIN'),
    status: 200, summary: 'Delete the named users that are inactive (never the caller; active or unknown ids are left alone)',
    body: userIdsSchema,
  },
  getUserAccessOverview: {
    method: 'GET', path: '/api/admin/user-admin/{id}/permissions', access: admin('ADMIN'),
    status: 200, summary: "Every permission and whether the user has it through their own or their groups' root role",
    query: accessOverviewQuerySchema, response: accessOverviewSchema,
  },
  listPermissions: {
    method: 'GET', path: '/api/admin/permissions', access: admin('READ_UI_CONFIG'),
    status: 200, summary: "Unleash's permissions this service decides by, at root, project and each environment's level",
    response: permissionCatalogueSchema,
  },
  listRoles: {
    method: 'GET', path: '/api/admin/roles', access: admin('ADMIN'),
    status: 200, summary: 'List the root roles: Admin (1), Editor (2), Viewer (3)', response: roleListSchema,
  },
});
