import { groupOperations } from '../../lib/groups/operations.js';
import { groupHandler } from '../../lib/composition/group-handler.js';

export const defineOperations = groupOperations;

export const handler = groupHandler('groups', defineOperations);
