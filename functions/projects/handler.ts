import { functionHandler, type FunctionDefinition } from '../../lib/composition/function-handler.js';
import { adminEdge } from '../../lib/composition/session-edge.js';
import { environments } from '../../lib/composition/slices/environments.js';
import { favourites } from '../../lib/composition/slices/favourites.js';
import { projects } from '../../lib/composition/slices/projects.js';

/** Projects and their environments, the instance's environments (E8, E9), and the stars people put on flags and projects. */
export const definition: FunctionDefinition = {
  group: 'projects',
  compose: (c) => ({ projects: c.once(projects), environments: c.once(environments), favourites: c.once(favourites) }),
  admin: adminEdge,
};

export const handler = functionHandler(definition);
