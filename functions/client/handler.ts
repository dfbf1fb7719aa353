import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';

/** The client group has no routes in the route table yet; its function is deployed and ready. */
export const defineOperations = (): GroupOperations<'client'> => ({});

export const handler = groupHandler('client', defineOperations);
