import { compareEnvironments, type Environment } from '../../environments/model.js';
import type { Project } from '../../projects/model.js';
import { projectNotFound } from '../../projects/project-service.js';
import { builtInStrategyType } from '../../strategies/model.js';
import type { Composition } from '../composition.js';
import { environmentStore, projectStore, strategyTypeStore } from '../stores.js';

/*
 * Reads of the catalogue that several slices' ports ask for in the same words (the feature,
 * transfer and context-field ports), from the adapters, so a function's bundle holds none of
 * the services they belong to.
 */

/** The project, or NotFound in the projects' own words. */
export async function projectOf(c: Composition, id: string): Promise<Project> {
  const project = await c.once(projectStore).get(id);
  if (!project) throw projectNotFound(id);
  return project;
}

/** Every environment, in sort order. */
export async function sortedEnvironments(c: Composition): Promise<Environment[]> {
  return (await c.once(environmentStore).list()).sort(compareEnvironments);
}

/** Whether a built-in or custom strategy type has the name (a stored record of a built-in one only marks its deprecation). */
export async function strategyTypeExists(c: Composition, name: string): Promise<boolean> {
  if (builtInStrategyType(name)) return true;
  return (await c.once(strategyTypeStore).get(name))?.kind === 'custom';
}
