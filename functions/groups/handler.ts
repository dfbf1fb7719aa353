import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';

/** The groups group has no routes in the route table yet; its function is deployed and ready. */
export const defineOperations = (): GroupOperations<'groups'> => ({});

export const handler = groupHandler('groups', defineOperations);
