import { DEFAULT_ENVIRONMENTS, DEFAULT_PROJECT } from './defaults.js';

/** Answers whether the projects and environments a token names exist. */
export interface ScopeCatalog {
  environmentExists(name: string): Promise<boolean>;
  projectExists(id: string): Promise<boolean>;
}

/**
 * The catalog of a service that has only its built-in project and environments. It is the
 * whole truth while projects and environments cannot be created; the projects group will
 * answer from the table once they can.
 */
export const builtInScopeCatalog: ScopeCatalog = {
  environmentExists: async (name) => DEFAULT_ENVIRONMENTS.some((environment) => environment.name === name),
  projectExists: async (id) => id === DEFAULT_PROJECT.id,
};
