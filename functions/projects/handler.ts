import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { environments } from '../../lib/composition/slices/environments.js';
import { projects } from '../../lib/composition/slices/projects.js';

/** Projects and their environments, and the instance's environments (E8, E9). */
export const definition: FunctionDefinition = {
  group: 'projects',
  compose: (c) => ({ projects: c.once(projects), environments: c.once(environments) }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
