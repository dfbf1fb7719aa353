import { groupOperations } from '../../lib/groups/operations.js';
import { groupHandler } from '../../lib/http/group-handler.js';

export const defineOperations = groupOperations;

export const handler = groupHandler('groups', defineOperations);
