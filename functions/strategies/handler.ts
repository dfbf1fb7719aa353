import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import { strategyTypeOperations } from '../../lib/strategies/operations.js';

export const defineOperations = strategyTypeOperations;

export const definition = wholeRootDefinition('strategies', defineOperations);

export const handler = functionHandler(definition);
