import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import { stateOperations } from '../../lib/state/operations.js';

export const defineOperations = stateOperations;

export const definition = wholeRootDefinition('state', defineOperations);

export const handler = functionHandler(definition);
