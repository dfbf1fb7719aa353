import { NotFound } from '../errors.js';
export interface Environment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  createdAt: string;
}

/** Environments list by sort order, then name, as Unleash shows them. */
export function compareEnvironments(a: Environment, b: Environment): number {
  return a.sortOrder - b.sortOrder || a.name.localeCompare(b.name);
}

/** Unleash's message for an environment that does not exist. */
export const environmentNotFound = (name: string): NotFound => new NotFound(`Could not find environment with name ${name}`);
