import { NotFound } from '../errors.js';
import type { Caller } from '../http/caller.js';
import { changeEvent } from '../events/model.js';
import { favouritesOwner, NO_FAVOURITES, personOf, type Favourites } from './model.js';
import type { FavouritePorts } from './ports.js';
import type { FavouriteStore } from './store.js';

/**
 * The star on flags and projects, per user, as Unleash keeps it: starring writes
 * `feature-favorited` / `project-favorited` and unstarring `…-unfavorited`, each in the same
 * transaction as the favourite. Unlike Unleash, a star already there (or a removal of one that is
 * not) writes nothing and records no event, since nothing changed.
 */
export class FavouriteService {
  constructor(
    private readonly store: FavouriteStore,
    private readonly ports: FavouritePorts,
  ) {}

  /** The caller's favourites; an API token has none. */
  async of(caller: Caller): Promise<Favourites> {
    const userId = favouritesOwner(caller);
    return userId === undefined ? NO_FAVOURITES : this.store.of(userId);
  }

  /** One person's favourites, one Query of their partition. */
  ofUser(userId: number): Promise<Favourites> {
    return this.store.of(userId);
  }

  async favouriteFeature(caller: Caller, projectId: string, featureName: string): Promise<void> {
    const person = personOf(caller);
    // Unleash answers a flag that does not exist with a 500 (its foreign key); a 404 says what is wrong.
    if ((await this.ports.projectOfFeature(featureName)) !== projectId) {
      throw new NotFound(`Feature ${featureName} does not exist in project ${projectId}`);
    }
    const event = changeEvent('feature-favorited', { project: projectId, featureName }, person.tokenName);
    await this.store.add(person.userId, 'feature', featureName, event);
  }

  async unfavouriteFeature(caller: Caller, projectId: string, featureName: string): Promise<void> {
    const person = personOf(caller);
    const event = changeEvent('feature-unfavorited', { project: projectId, featureName }, person.tokenName);
    await this.store.remove(person.userId, 'feature', featureName, event);
  }

  async favouriteProject(caller: Caller, projectId: string): Promise<void> {
    const person = personOf(caller);
    await this.ports.ensureProject(projectId);
    await this.store.add(person.userId, 'project', projectId, changeEvent('project-favorited', { project: projectId }, person.tokenName));
  }

  async unfavouriteProject(caller: Caller, projectId: string): Promise<void> {
    const person = personOf(caller);
    await this.store.remove(person.userId, 'project', projectId, changeEvent('project-unfavorited', { project: projectId }, person.tokenName));
  }
}
