import { groupHandler } from '../../lib/http/group-handler.js';
import type { GroupOperations } from '../../lib/http/operation.js';

/** The features group has no routes in the route table yet; its function is deployed and ready. */
export const defineOperations = (): GroupOperations<'features'> => ({});

export const handler = groupHandler('features', defineOperations);
