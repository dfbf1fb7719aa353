import { admin, defineRoutes } from '../http/route.js';
import { roleListSchema, userCreateSchema, userListSchema, userSchema, userUpdateSchema } from './schemas.js';

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
  listRoles: {
    method: 'GET', path: '/api/admin/roles', access: admin('ADMIN'),
    status: 200, summary: 'List the root roles: Admin (1), Editor (2), Viewer (3)', response: roleListSchema,
  },
});
