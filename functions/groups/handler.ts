import { groupOperations } from '../../lib/groups/operations.js';
import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';

export const defineOperations = groupOperations;

export const definition = wholeRootDefinition('groups', defineOperations);

export const handler = functionHandler(definition);
