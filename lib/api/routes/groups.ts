import { route, type RouteSpec } from '../route-types.js';
import { groupInputSchema, groupListSchema, groupSchema } from '../schemas/groups.js';

export const groupRoutes = {
  listGroups: route({
    method: 'GET', path: '/api/admin/groups', group: 'groups', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'List groups with their members', response: groupListSchema,
  }),
  createGroup: route({
    method: 'POST', path: '/api/admin/groups', group: 'groups', access: { kind: 'admin', permission: 'ADMIN' },
    status: 201, summary: 'E4. Create a group', body: groupInputSchema, response: groupSchema,
  }),
  getGroup: route({
    method: 'GET', path: '/api/admin/groups/{groupId}', group: 'groups', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Get a group with its members', response: groupSchema,
  }),
  updateGroup: route({
    method: 'PUT', path: '/api/admin/groups/{groupId}', group: 'groups', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'E1. Update a group: the body replaces its details and its members', body: groupInputSchema,
    response: groupSchema,
  }),
  deleteGroup: route({
    method: 'DELETE', path: '/api/admin/groups/{groupId}', group: 'groups', access: { kind: 'admin', permission: 'ADMIN' },
    status: 200, summary: 'Delete a group',
  }),
} as const satisfies Record<string, RouteSpec>;
