import type { Group } from '../lib/http/route.js';
import type { GroupOperations } from '../lib/route-table.js';
import type { Services } from '../lib/composition/services.js';
import { defineOperations as access } from './access/handler.js';
import { defineOperations as client } from './client/handler.js';
import { defineOperations as features } from './features/handler.js';
import { defineOperations as frontend } from './frontend/handler.js';
import { defineOperations as groups } from './groups/handler.js';
import { defineOperations as instance } from './instance/handler.js';
import { defineOperations as projects } from './projects/handler.js';
import { defineOperations as state } from './state/handler.js';
import { defineOperations as strategies } from './strategies/handler.js';

/**
 * Every group's handler functions, for the processes that serve all groups at once (the local
 * server, `npm run invoke`, tests). Each Lambda imports only its own group's module.
 */
export const groupOperations: { [G in Group]: (services: Services) => GroupOperations<G> } = {
  groups,
  strategies,
  features,
  projects,
  state,
  access,
  instance,
  client,
  frontend,
};
