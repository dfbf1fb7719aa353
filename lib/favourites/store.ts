import type { ChangeEvent } from '../events/model.js';
import type { FavouriteKind, Favourites } from './model.js';

/** A user's favourites; every change is written with the event that tells of it, or not at all. */
export interface FavouriteStore {
  /** One Query of the user's own partition. */
  of(userId: number): Promise<Favourites>;
  /** False when it was a favourite already (nothing written, no event). */
  add(userId: number, kind: FavouriteKind, name: string, event: ChangeEvent): Promise<boolean>;
  /** False when it was not a favourite (nothing written, no event). */
  remove(userId: number, kind: FavouriteKind, name: string, event: ChangeEvent): Promise<boolean>;
}
