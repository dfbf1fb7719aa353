import type { EnvironmentStore } from '../environments/store.js';
import type { ProjectStore } from './store.js';

/** Answers whether the projects and environments a token names exist. */
export interface ScopeCatalog {
  environmentExists(name: string): Promise<boolean>;
  projectExists(id: string): Promise<boolean>;
}

/** The catalog the token service checks against: whatever the table holds, seeded or created. */
export function storedScopeCatalog(projects: Pick<ProjectStore, 'get'>, environments: Pick<EnvironmentStore, 'get'>): ScopeCatalog {
  return {
    environmentExists: async (name) => (await environments.get(name)) !== undefined,
    projectExists: async (id) => (await projects.get(id)) !== undefined,
  };
}
