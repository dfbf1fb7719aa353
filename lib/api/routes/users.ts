import { route, type RouteSpec } from '../route-types.js';
import { roleListSchema, userCreateSchema, userListSchema, userSchema, userUpdateSchema } from '../schemas/users.js';

/** User administration and the root roles; part of the `access` group. */
export const userRoutes = {
  listUsers: route({
    method: 'GET', path: '/api/admin/user-admin', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'List users, with the root roles they can have', response: userListSchema,
  }),
  createUser: route({
    method: 'POST', path: '/api/admin/user-admin', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 201, summary: 'Create a user (e-mail and username unique)', body: userCreateSchema, response: userSchema,
  }),
  getUser: route({
    method: 'GET', path: '/api/admin/user-admin/{id}', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'E11. Get a user', response: userSchema,
  }),
  updateUser: route({
    method: 'PUT', path: '/api/admin/user-admin/{id}', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Update a user; fields left out keep their value', body: userUpdateSchema, response: userSchema,
  }),
  deleteUser: route({
    method: 'DELETE', path: '/api/admin/user-admin/{id}', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Delete a user and end its group memberships',
  }),
  listRoles: route({
    method: 'GET', path: '/api/admin/roles', group: 'access', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'List the root roles: Admin (1), Editor (2), Viewer (3)', response: roleListSchema,
  }),
} as const satisfies Record<string, RouteSpec>;
