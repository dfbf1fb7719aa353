import { admin, defineRoutes } from '../http/route.js';
import { groupInputSchema, groupListSchema, groupSchema } from './schemas.js';

export const groupRoutes = defineRoutes('groups', {
  listGroups: {
    method: 'GET', path: '/api/admin/groups', access: admin('ADMIN'),
    status: 200, summary: 'List groups with their members', response: groupListSchema,
  },
  createGroup: {
    method: 'POST', path: '/api/admin/groups', access: admin('ADMIN'),
    status: 201, summary: 'E4. Create a group', body: groupInputSchema, response: groupSchema,
  },
  getGroup: {
    method: 'GET', path: '/api/admin/groups/{groupId}', access: admin('ADMIN'),
    status: 200, summary: 'Get a group with its members', response: groupSchema,
  },
  updateGroup: {
    method: 'PUT', path: '/api/admin/groups/{groupId}', access: admin('ADMIN'),
    status: 200, summary: 'E1. Update a group: the body replaces its details and its members', body: groupInputSchema,
    response: groupSchema,
  },
  deleteGroup: {
    method: 'DELETE', path: '/api/admin/groups/{groupId}', access: admin('ADMIN'),
    status: 200, summary: 'Delete a group',
  },
});
