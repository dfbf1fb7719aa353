import { environmentOperations } from '../../lib/environments/operations.js';
import type { Services } from '../../lib/composition/services.js';
import { functionHandler } from '../../lib/composition/function-handler.js';
import { wholeRootDefinition } from '../../lib/composition/group-handler.js';
import type { GroupOperations } from '../../lib/route-table.js';
import { projectOperations } from '../../lib/projects/operations.js';

export const defineOperations = (services: Services): GroupOperations<'projects'> => ({
  ...projectOperations(services),
  ...environmentOperations(services),
});

export const definition = wholeRootDefinition('projects', defineOperations);

export const handler = functionHandler(definition);
