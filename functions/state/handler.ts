import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';

/** The state group has no routes in the route table yet; its function is deployed and ready. */
export const defineOperations = (): GroupOperations<'state'> => ({});

export const handler = groupHandler('state', defineOperations);
