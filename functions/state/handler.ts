import { groupHandler } from '../../lib/composition/group-handler.js';
import { stateOperations } from '../../lib/state/operations.js';

export const defineOperations = stateOperations;

export const handler = groupHandler('state', defineOperations);
