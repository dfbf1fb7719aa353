import { groupHandler } from '../../lib/composition/group-handler.js';
import { strategyTypeOperations } from '../../lib/strategies/operations.js';

export const defineOperations = strategyTypeOperations;

export const handler = groupHandler('strategies', defineOperations);
