import type { EnvironmentPorts } from '../../environments/ports.js';
import { environmentSlice } from '../../environments/slice.js';
import type { Composition } from '../composition.js';
import { apiTokenStore } from '../edge.js';
import { projects } from './projects.js';

/** The environments' slice, once per composition, on its ports. */
export const environments = (c: Composition) => environmentSlice(c, environmentPorts(c));

/** What environments read: how a project uses them, from the projects' slice, and the stored API tokens. */
function environmentPorts(c: Composition): EnvironmentPorts {
  return {
    environmentUse: (projectId) => c.once(projects).projects.environmentUse(projectId),
    apiTokens: () => c.once(apiTokenStore).list(),
  };
}
