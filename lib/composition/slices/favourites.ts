import type { FavouritePorts } from '../../favourites/ports.js';
import { favouriteSlice } from '../../favourites/slice.js';
import type { Composition } from '../composition.js';
import { featureStore } from '../stores.js';
import { projectOf } from './catalog-reads.js';

/** The favourites' slice, once per composition; other slices' ports read a caller's favourites through its service. */
export const favourites = (c: Composition) => favouriteSlice(c, favouritePorts(c));

/** What starring checks: that the flag is in the project named (one GetItem), that the project exists. */
function favouritePorts(c: Composition): FavouritePorts {
  return {
    projectOfFeature: async (featureName) => (await c.once(featureStore).get(featureName))?.project,
    ensureProject: async (projectId) => {
      await projectOf(c, projectId);
    },
  };
}
