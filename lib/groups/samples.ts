import { defineSamples, numericPlaceholder } from '../samples.js';
import { groupRoutes } from './routes.js';

export const groupSamples = defineSamples(groupRoutes, {
  'create': {
    operation: 'createGroup',
    body: {
      name: 'platform-team-{{UNIQUE}}',
      description: 'Runs the platform',
      rootRole: 2,
      users: [{ user: { id: numericPlaceholder('USER_ID') } }],
    },
    status: 201,
    given: ['access/create-user'],
    provides: { GROUP_ID: 'id' },
  },
  'create-taken-name': {
    operation: 'createGroup',
    body: { name: 'platform-team-{{UNIQUE}}' },
    status: 409,
    given: ['groups/create'],
  },
  'create-unknown-member': {
    operation: 'createGroup',
    body: { name: 'ghosts', users: [{ user: { id: 999999 } }] },
    status: 400,
  },
  'list': { operation: 'listGroups', status: 200 },
  'get': { operation: 'getGroup', params: { groupId: '{{GROUP_ID}}' }, status: 200, given: ['groups/create'] },
  'update': {
    operation: 'updateGroup',
    params: { groupId: '{{GROUP_ID}}' },
    body: {
      name: 'platform-team-{{UNIQUE}}',
      description: 'Runs the platform and the pipelines',
      users: [{ user: { id: numericPlaceholder('USER_ID') } }],
    },
    status: 200,
    given: ['groups/create'],
  },
  'update-unknown': { operation: 'updateGroup', params: { groupId: '999999' }, body: { name: 'nobody' }, status: 404 },
  'delete': { operation: 'deleteGroup', params: { groupId: '{{GROUP_ID}}' }, status: 200, given: ['groups/create'] },
});
